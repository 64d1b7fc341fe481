import Foundation
import XCTest

/// Camera RAW fixtures the tests write themselves: DNGs from `make_dng.py` (the TIFF structure written with Python's
/// `struct`, an RGGB mosaic, an optional JPEG preview made with Pillow).
enum RawFixture {
    /// The script beside this file.
    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("make_dng.py").path
    }

    /// Writes a DNG at `path`: `size` of sensor data, a JPEG preview of `preview` when given, and the script's other
    /// options as `extra` (`--orientation 6`, `--truncate 5000`, …).
    @discardableResult
    static func dng(at path: String, size: String = "640x480", preview: String? = nil, _ extra: [String] = []) throws -> String {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let arguments = ["/usr/bin/python3", script, path, "--size", size] + (preview.map { ["--preview", $0] } ?? []) + extra
        let made = try Tool.run(arguments)
        guard made.status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "make_dng.py failed: \(made.stderr)"])
        }
        return path
    }
}
