/// How close two decoded images of the same size are: the largest and mean per-channel difference, SSIM, and the
/// largest difference between the mean colours of the same block of each (the look, with resampling averaged out).
struct PixelComparison {
    var largest: Int
    var mean: Double
    var ssim: Double
    /// The largest difference of a channel's mean over the same `block`×`block` square of each image.
    var blockMeans: Double

    /// Compares two interleaved RGB images of `width`×`height`.
    ///
    /// SSIM (Wang et al. 2004) with the usual constants, C1 = (0.01·255)², C2 = (0.03·255)², on each channel over
    /// 8×8 windows every 4 pixels, averaged over windows and channels. 1 means identical.
    init(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int, block: Int = 30) {
        precondition(a.count == b.count && a.count == width * height * 3, "images of one size, 3 bands")
        var largest = 0, total = 0
        for (x, y) in zip(a, b) {
            let d = abs(Int(x) - Int(y))
            largest = max(largest, d)
            total += d
        }
        self.largest = largest
        mean = Double(total) / Double(max(a.count, 1))
        let c1 = 6.5025, c2 = 58.5225
        var sum = 0.0, windows = 0
        for top in stride(from: 0, through: height - 8, by: 4) {
            for left in stride(from: 0, through: width - 8, by: 4) {
                for channel in 0..<3 {
                    var sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0
                    for y in top..<top + 8 {
                        for x in left..<left + 8 {
                            let i = (y * width + x) * 3 + channel
                            let p = Double(a[i]), q = Double(b[i])
                            sa += p; sb += q; saa += p * p; sbb += q * q; sab += p * q
                        }
                    }
                    let n = 64.0
                    let ma = sa / n, mb = sb / n
                    let va = saa / n - ma * ma, vb = sbb / n - mb * mb, cov = sab / n - ma * mb
                    sum += (2 * ma * mb + c1) * (2 * cov + c2) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
                    windows += 1
                }
            }
        }
        ssim = windows == 0 ? (largest == 0 ? 1 : 0) : sum / Double(windows)
        var worst = 0.0
        for top in stride(from: 0, through: height - block, by: block) {
            for left in stride(from: 0, through: width - block, by: block) {
                for channel in 0..<3 {
                    var difference = 0
                    for y in top..<top + block {
                        for x in left..<left + block {
                            let i = (y * width + x) * 3 + channel
                            difference += Int(a[i]) - Int(b[i])
                        }
                    }
                    worst = max(worst, abs(Double(difference)) / Double(block * block))
                }
            }
        }
        blockMeans = worst
    }
}
