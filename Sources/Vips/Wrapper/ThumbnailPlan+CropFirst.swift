/// Resizing only what survives a centre crop, with libvips' own pixels (issue 35; Benchmarks/INVESTIGATION.md,
/// section 24).
///
/// `vips_resize` in libvips 8.14 reduces vertically (`reducev`), then horizontally (`reduceh`), each axis on its own.
/// On an axis of `n` input pixels reduced by `s` to `N = round(n ÷ s)`, an integer part `q = max(1, ⌊n ÷ N ÷ 2⌋)` is
/// first block-averaged (`shrinkv`/`shrinkh`, gap 2), then output pixel `y` is the Lanczos3 sum centred on input
/// `Y(y) = (y + ½)·r − ½ − o` in the shrunk grid, with `r = s ÷ q` and `o = (1 + (N·s − n) ÷ q) ÷ 2 − 1`
/// (reducev.cpp and reduceh.cpp at v8.14.1). Cut the input to the symmetric window `[A, n − A)`, `A` a multiple of
/// `q`, and reduce it by the same `s`: if it gives `N − 2K` pixels with the same `q`, then its centre for output
/// `y'` is exactly `Y(y' + K) − A ÷ q`, the same neighbours with the same weights, so its pixel `y'` is the whole
/// image's pixel `y' + K` (within the rounding of one double, which can move a weight table by one of its 1/16
/// steps). Pixels within the kernel's reach of the window's edges see its edge repeated instead of the photo, so the
/// window keeps a margin of `margin` output pixels on each side of the crop, cut away after the reduction.
struct CropFirstAxis: Equatable {
    /// The input window: `[inputStart, inputStart + inputLength)`.
    var inputStart: Int
    var inputLength: Int
    /// Where the window's first output pixel lies in the whole image's output.
    var outputStart: Int

    /// Output pixels kept on each side of the crop, beyond the Lanczos3 kernel's reach (3 output pixels, plus one
    /// for the block average's rounding).
    static let margin = 6

    /// The window for keeping output pixels `[keptStart, keptStart + kept)` of an axis of `length` input pixels
    /// reduced by `shrink` (the factor `vips_resize` passes to `reducev`/`reduceh`). The whole axis when the crop
    /// leaves no room for a margin or no window meets the conditions above: that is always exact.
    static func window(length n: Int, shrink s: Double, keptStart: Int, kept: Int) -> CropFirstAxis {
        let whole = CropFirstAxis(inputStart: 0, inputLength: n, outputStart: 0)
        let total = roundUInt(Double(n) / s)
        let k = keptStart - margin
        guard s > 1, total > 0, k > 0, keptStart + kept + margin <= total - k else { return whole }
        let q = integerShrink(length: n, output: total)
        // The window's extra input (N·s − n, for the window) must stay below half a step, so that it rounds to
        // N − 2K: aim at A = K·s − (N·s − n)/2 on the multiples of q, and try its neighbours.
        let aim = (Double(k) * s - (Double(total) * s - Double(n)) / 2) / Double(q)
        for step in [0, -1, 1] {
            let a = (Int(aim.rounded()) + step) * q
            let length = n - 2 * a
            guard a > 0, length > 0, roundUInt(Double(length) / s) == total - 2 * k,
                  integerShrink(length: length, output: total - 2 * k) == q else { continue }
            // The kernel of the first kept pixel reaches (3·r + 1)·q input pixels either side of its centre,
            // (keptStart + ½)·s: the window must start before that, and end after the last kept pixel's reach.
            let reach = (3 * s / Double(q) + 2) * Double(q) + 1
            guard Double(a) <= (Double(keptStart) + 0.5) * s - reach,
                  Double(n - a) >= (Double(keptStart + kept) - 0.5) * s + reach else { continue }
            return CropFirstAxis(inputStart: a, inputLength: length, outputStart: k)
        }
        return whole
    }

    /// `VIPS_ROUND_UINT`: libvips' output size, rounding halves up.
    static func roundUInt(_ x: Double) -> Int { Int(UInt32(x + 0.5)) }

    /// The block average `reducev`/`reduceh` do first (their `gap` is `vips_resize`'s 2.0).
    static func integerShrink(length n: Int, output total: Int) -> Int {
        max(1, Int((Double(n) / Double(total) / 2.0).rounded(.down)))
    }
}

extension ThumbnailPlan {
    /// The factors `vips_thumbnail_image` gives `vips_resize` for this plan's box on a `width`×`height` image
    /// (`vips_thumbnail_calculate_shrink` with no crop and no rotation, as the plan asks), as `reducev` and `reduceh`
    /// then receive them; nil unless both axes are reduced (enlarging goes through `vips_affine`).
    func reduceFactors(width: Int, height: Int) -> (horizontal: Double, vertical: Double)? {
        var h = Double(width) / Double(box.width), v = Double(height) / Double(box.height)
        if geometry.sizing != .force {
            if h < v { h = v } else { v = h }
        }
        switch geometry.sizing {
        case .up: (h, v) = (min(1, h), min(1, v))
        case .down: (h, v) = (max(1, h), max(1, v))
        default: break
        }
        (h, v) = (min(h, Double(width)), min(v, Double(height)))
        let hscale = max(1.0 / h, 1.0 / Double(width)), vscale = max(1.0 / v, 1.0 / Double(height))
        guard hscale < 1, vscale < 1 else { return nil }
        return (1.0 / hscale, 1.0 / vscale)
    }
}
