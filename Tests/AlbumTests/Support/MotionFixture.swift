import Foundation
import XCTest

/// Movies and photos with motion made for the tests: short H.264 clips by the `ffmpeg` command, Motion Photos (a JPEG
/// whose XMP marks the MP4 appended to it) by exiftool and an append. Fixtures only: album itself never runs a tool.
enum MotionFixture {
    /// A `seconds`-long 64×48 H.264 test pattern at `path` (its extension picks MP4 or QuickTime); `variant` changes
    /// its pixels, so clips made in a loop have different bytes. `metadata` are ffmpeg's `-metadata` pairs.
    @discardableResult
    static func movie(at path: String, seconds: Int = 1, variant: Int = 0, metadata: [String] = []) throws -> String {
        try Probe.require("ffmpeg", package: "ffmpeg")
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let made = try Tool.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10",
                                 "-t", String(seconds), "-vf", "hue=h=\(variant * 40)", "-c:v", "libx264", "-pix_fmt", "yuv420p"]
                                + metadata.flatMap { ["-metadata", $0] } + [path])
        XCTAssertEqual(made.status, 0, "ffmpeg: \(made.stderr)")
        return path
    }

    /// How a Motion Photo's XMP marks its movie.
    enum Marker {
        /// `GCamera:MicroVideo="1"` and `GCamera:MicroVideoOffset` (the older form, Samsung's and early Pixels').
        case microVideo
        /// `Camera:MotionPhoto="1"` and a `Container:Directory` of a primary item and a MotionPhoto item.
        case directory
    }

    /// A JPEG at `path` whose XMP marks a Motion Photo of `movie`'s length, with `movie`'s bytes appended when
    /// `appending` (without them, the marker places nothing: an editor that kept the XMP and dropped the movie).
    @discardableResult
    static func motionPhoto(at path: String, movie: String, marker: Marker, variant: Int = 0, appending: Bool = true) throws -> String {
        try Probe.require("exiftool", package: "libimage-exiftool-perl")
        try Fixture.jpeg(at: path, variant: variant)
        let clip = try Data(contentsOf: URL(fileURLWithPath: movie))
        let packet = (path as NSString).deletingPathExtension + ".packet.xmp"
        try Data(xmp(marker, length: clip.count).utf8).write(to: URL(fileURLWithPath: packet))
        defer { try? FileManager.default.removeItem(atPath: packet) }
        let written = try Tool.run(["exiftool", "-q", "-overwrite_original", "-xmp<=\(packet)", path])
        XCTAssertEqual(written.status, 0, "exiftool: \(written.stderr)")
        if appending {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: clip)
            try handle.close()
        }
        return path
    }

    /// The XMP packet that marks a movie of `length` bytes at the end of the file, in the form `marker` says (the
    /// way Google's camera writes it: fields as attributes).
    static func xmp(_ marker: Marker, length: Int) -> String {
        let fields: String
        switch marker {
        case .microVideo:
            fields = """
                xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MicroVideo="1" GCamera:MicroVideoVersion="1"
                GCamera:MicroVideoOffset="\(length)" GCamera:MicroVideoPresentationTimestampUs="0"/>
                """
        case .directory:
            fields = """
                xmlns:Camera="http://ns.google.com/photos/1.0/camera/" xmlns:Container="http://ns.google.com/photos/1.0/container/"
                xmlns:Item="http://ns.google.com/photos/1.0/container/item/" Camera:MotionPhoto="1" Camera:MotionPhotoVersion="1">
                <Container:Directory><rdf:Seq>
                <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/></rdf:li>
                <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="\(length)"/></rdf:li>
                </rdf:Seq></Container:Directory></rdf:Description>
                """
        }
        return """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" \(fields)
            </rdf:RDF></x:xmpmeta>
            """
    }
}
