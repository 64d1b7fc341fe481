import Foundation
import Synchronization
import System
import XCTest
import Vips

/// Shared by every test: libvips started once, temporary folders, generated photos, and the built `album` binary.
enum TestSupport {
    /// Starts libvips once for the test process.
    static let started: Void = {
        do { try Vips.start() } catch { fatalError("libvips did not start: \(error)") }
    }()

    /// A new empty folder, removed when the test ends.
    static func temporaryFolder(_ test: XCTestCase) throws -> String {
        _ = started
        let path = NSTemporaryDirectory() + "album-tests-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// The `album` executable built beside the test bundle.
    static var albumBinary: String {
        // The test runner is the bundle's executable, built into the same folder as `album`.
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return runner.deletingLastPathComponent().appendingPathComponent("album").path
    }

    /// Runs the built `album` with `arguments` in `folder`, through `wrapper` when given (a command and its
    /// arguments, e.g. setpriv), and returns its exit status and output. `environment` holds variables set for album
    /// on top of the test's own (`GITHUB_WORKSPACE`); album reads an empty value as unset.
    @discardableResult
    static func album(_ arguments: [String], in folder: String? = nil, stdin: String? = nil,
                      through wrapper: [String] = [],
                      environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        let command = wrapper + [albumBinary] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            let input = Pipe()
            process.standardInput = input
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        try process.run()
        // Drain stderr alongside stdout: a full pipe would block album mid-run.
        let errData = Mutex(Data())
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errData.withLock { $0 = data }
            drained.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData.withLock { $0 }, as: UTF8.self))
    }

    /// Writes `text` to `folder/name` and returns the path.
    @discardableResult
    static func write(_ text: String, to name: String, in folder: String) throws -> String {
        let path = folder + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// SHA-256 of a file, from coreutils' `sha256sum` (never the code under test's own hash), to prove originals are
    /// never written. The bytes are piped in, so that names which are not UTF-8 (`NativePath`) work too.
    static func hash(_ path: String) throws -> String {
        let fd = NativePath.withCString(path) { open($0, O_RDONLY) }
        guard fd >= 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        let bytes = FileHandle(fileDescriptor: fd, closeOnDealloc: true).readDataToEndOfFile()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The output is one line, so writing all the input first cannot block on a full output pipe.
        input.fileHandleForWriting.write(bytes)
        try input.fileHandleForWriting.close()
        let digest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: digest.prefix(64), as: UTF8.self)
    }
}

/// Photos generated in memory with libvips, written as real files.
enum Fixture {
    /// An upright test picture: a red top-left quadrant on blue, so orientation mistakes are visible.
    static func quadrantPixels(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let red = x < width / 2 && y < height / 2
                pixels[i] = red ? 220 : 20
                pixels[i + 1] = 20
                pixels[i + 2] = red ? 20 : 200
            }
        }
        return pixels
    }

    /// The pixels to store so that a viewer applying EXIF `orientation` shows `upright` (w×h).
    /// Returns the stored pixels and their stored size.
    static func stored(_ upright: [UInt8], width w: Int, height h: Int, orientation: Int) -> ([UInt8], Int, Int) {
        let swap = orientation >= 5
        let sw = swap ? h : w, sh = swap ? w : h
        var out = [UInt8](repeating: 0, count: upright.count)
        for sy in 0..<sh {
            for sx in 0..<sw {
                // Where this stored pixel appears once the orientation is applied (EXIF 2.3, tag 0x0112).
                let (dx, dy): (Int, Int) = switch orientation {
                case 2: (sw - 1 - sx, sy)
                case 3: (sw - 1 - sx, sh - 1 - sy)
                case 4: (sx, sh - 1 - sy)
                case 5: (sy, sx)
                case 6: (sh - 1 - sy, sx)
                case 7: (sh - 1 - sy, sw - 1 - sx)
                case 8: (sy, sw - 1 - sx)
                default: (sx, sy)
                }
                for c in 0..<3 { out[(sy * sw + sx) * 3 + c] = upright[(dy * w + dx) * 3 + c] }
            }
        }
        return (out, sw, sh)
    }

    /// A JPEG file of the quadrant picture under `orientation`, optionally with an EXIF capture date.
    @discardableResult
    static func jpeg(at path: String, width: Int = 320, height: Int = 200, orientation: Int = 1,
                     taken: String? = nil, quality: Int = 90, variant: Int = 0) throws -> String {
        var upright = quadrantPixels(width: width, height: height)
        // A different `variant` changes the bottom-right pixel, so photos made in a loop have different bytes.
        upright[upright.count - 2] = UInt8(truncatingIfNeeded: 200 + variant)
        upright[upright.count - 1] = UInt8(truncatingIfNeeded: variant * 7)
        let (pixels, sw, sh) = stored(upright, width: width, height: height, orientation: orientation)
        var image = try Image.fromPixels(pixels, width: sw, height: sh, bands: 3)
        if orientation != 1 { image = try image.setting("orientation", to: orientation) }
        if let taken { image = try image.setting("exif-ifd2-DateTimeOriginal", to: taken) }
        let bytes = try image.encoded(as: .jpeg, quality: quality, strip: false)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Decodes a file and returns its size and the mean colour of each quadrant (TL, TR, BL, BR).
    static func quadrants(of path: String) throws -> (width: Int, height: Int, means: [[Double]]) {
        let image = try Image.open(FileBytes(path: path), sequential: false, failOn: .error).srgb8(colourManaged: false)
        let pixels = try image.pixels()
        let w = image.width, h = image.height, bands = image.bands
        var sums = [[Double]](repeating: [0, 0, 0], count: 4), counts = [Double](repeating: 0, count: 4)
        for y in 0..<h {
            for x in 0..<w {
                // Skip a margin around the centre lines, where resampling blends the quadrants.
                if abs(x - w / 2) < 4 || abs(y - h / 2) < 4 { continue }
                let q = (y < h / 2 ? 0 : 2) + (x < w / 2 ? 0 : 1)
                for c in 0..<3 { sums[q][c] += Double(pixels[(y * w + x) * bands + c]) }
                counts[q] += 1
            }
        }
        return (w, h, (0..<4).map { q in sums[q].map { $0 / max(counts[q], 1) } })
    }
}

/// SplitMix64: a small, seeded generator that gives the same numbers on every machine, for fuzz and crash tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (0 when bound is 0).
    mutating func below(_ bound: Int) -> Int {
        bound > 0 ? Int(next() % UInt64(bound)) : 0
    }
}
