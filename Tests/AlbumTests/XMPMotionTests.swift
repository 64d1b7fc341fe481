import XCTest
@testable import XMP

/// Issue 33: a Motion Photo's markers as `XMPPacket.motion` reads them, in process: both forms, the directory's
/// fields as attributes (Google) or elements (exiftool), padding and items after the movie, and markers that place
/// nothing said in words.
final class XMPMotionTests: XCTestCase {
    func packet(_ description: String) throws -> XMPPacket {
        try XMPPacket(parsing: Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:C="http://ns.google.com/photos/1.0/camera/" xmlns:D="http://ns.google.com/photos/1.0/container/"
              xmlns:I="http://ns.google.com/photos/1.0/container/item/" \(description)
            </rdf:RDF></x:xmpmeta>
            """.utf8))
    }

    func testMicroVideoIsItsOffsetFromTheEnd() throws {
        let read = try packet(#"C:MicroVideo="1" C:MicroVideoOffset=" 5000 "/>"#)
        XCTAssertEqual(read.motion, XMPMotion(fromEnd: 5000, length: 5000))
        XCTAssertNil(read.motionProblem)
        XCTAssertEqual(read.notes, [])
    }

    func testTheDirectorysMovieWithPaddingAndItemsAfterItAsElementsOrAttributes() throws {
        let elements = try packet("""
            C:MotionPhoto="1"><D:Directory><rdf:Seq>
             <rdf:li rdf:parseType="Resource"><D:Item rdf:parseType="Resource"><I:Semantic>Primary</I:Semantic><I:Padding>8</I:Padding></D:Item></rdf:li>
             <rdf:li rdf:parseType="Resource"><D:Item rdf:parseType="Resource"><I:Semantic>MotionPhoto</I:Semantic><I:Length>700</I:Length><I:Padding>4</I:Padding></D:Item></rdf:li>
             <rdf:li rdf:parseType="Resource"><D:Item rdf:parseType="Resource"><I:Semantic>GainMap</I:Semantic><I:Length>100</I:Length></D:Item></rdf:li>
            </rdf:Seq></D:Directory></rdf:Description>
            """)
        XCTAssertEqual(elements.motion, XMPMotion(fromEnd: 804, length: 700), "the movie, its padding and the item after it end the file")
        let attributes = try packet("""
            C:MotionPhoto="1"><D:Directory><rdf:Seq>
             <rdf:li rdf:parseType="Resource"><D:Item I:Semantic="Primary" I:Length="0" I:Padding="0"/></rdf:li>
             <rdf:li rdf:parseType="Resource"><D:Item I:Semantic="MotionPhoto" I:Length="700"/></rdf:li>
            </rdf:Seq></D:Directory></rdf:Description>
            """)
        XCTAssertEqual(attributes.motion, XMPMotion(fromEnd: 700, length: 700))
    }

    func testMarkersThatPlaceNothingSaySoAndAPacketWithoutMarksNothing() throws {
        XCTAssertNil(try packet(#"C:MicroVideo="0" C:MicroVideoOffset="5"/>"#).motion)
        XCTAssertNil(try packet(#"C:MicroVideo="0"/>"#).motionProblem, "no marker: nothing to say")
        let cases = [
            (#"C:MicroVideo="1"/>"#, "GCamera:MicroVideo is 1 but GCamera:MicroVideoOffset is missing"),
            (#"C:MicroVideo="1" C:MicroVideoOffset="-3"/>"#, "GCamera:MicroVideoOffset '-3' is not a number of bytes above 0"),
            (#"C:MotionPhoto="1"/>"#, "Camera:MotionPhoto is 1 but the packet has no Container:Directory to say where its movie is"),
            (#"C:MotionPhoto="1"><D:Directory><rdf:Seq><rdf:li><D:Item I:Semantic="Primary"/></rdf:li></rdf:Seq></D:Directory></rdf:Description>"#,
             "Camera:MotionPhoto is 1 but its Container:Directory has no item of Item:Semantic MotionPhoto"),
            (#"C:MotionPhoto="1"><D:Directory><rdf:Seq><rdf:li><D:Item I:Semantic="MotionPhoto" I:Length="x"/></rdf:li></rdf:Seq></D:Directory></rdf:Description>"#,
             "the MotionPhoto item of its Container:Directory has no Item:Length above 0"),
        ]
        for (description, problem) in cases {
            let read = try packet(description)
            XCTAssertNil(read.motion, description)
            XCTAssertEqual(read.motionProblem, problem, description)
        }
    }
}
