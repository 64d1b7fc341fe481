import XCTest
@testable import XMP

/// Issue 32: the XMP reader on libxml2, in process: the RDF forms writers use, the namespaces by URI (never by
/// prefix), dates, and the documents it refuses (XXE, billion laughs, not XML, not XMP).
final class XMPPacketTests: XCTestCase {
    func packet(_ text: String) throws -> XMPPacket { try XMPPacket(parsing: Array(text.utf8)) }

    let rdf = #"xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#""#

    func testAttributesElementsAndContainersAreReadByNamespaceNotPrefix() throws {
        let read = try packet("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF \(rdf)>
             <rdf:Description xmlns:a="http://ns.adobe.com/xap/1.0/" a:Rating="3.0" a:Label=" Purple "/>
             <rdf:Description xmlns:b="http://purl.org/dc/elements/1.1/" xmlns:c="http://ns.adobe.com/lightroom/1.0/"
                 xmlns:p="http://ns.adobe.com/photoshop/1.0/" xmlns:e="http://ns.adobe.com/exif/1.0/">
              <b:subject><rdf:Bag><rdf:li>one</rdf:li><rdf:li>two</rdf:li><rdf:li>one</rdf:li><rdf:li> </rdf:li></rdf:Bag></b:subject>
              <c:hierarchicalSubject><rdf:Seq><rdf:li>A|B|C</rdf:li></rdf:Seq></c:hierarchicalSubject>
              <b:title><rdf:Alt><rdf:li xml:lang="de">Titel</rdf:li><rdf:li xml:lang="x-default"><![CDATA[T <1>]]></rdf:li></rdf:Alt></b:title>
              <b:description><rdf:Alt><rdf:li xml:lang="en">First</rdf:li><rdf:li xml:lang="fr">Second</rdf:li></rdf:Alt></b:description>
              <p:DateCreated>2001-02-03</p:DateCreated>
              <e:DateTimeOriginal>2010-11-12T13:14:15.678Z</e:DateTimeOriginal>
             </rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """)
        XCTAssertEqual(read.rating, 3)
        XCTAssertEqual(read.label, "Purple")
        XCTAssertEqual(read.keywords, ["one", "two"], "each once, empty ones left out")
        XCTAssertEqual(read.hierarchicalKeywords, ["A|B|C"])
        XCTAssertEqual(read.title, "T <1>", "x-default first, CDATA is text")
        XCTAssertEqual(read.description, "First", "with no x-default, the first written")
        XCTAssertEqual(read.taken, "2010-11-12T13:14:15+00:00", "exif:DateTimeOriginal before photoshop:DateCreated")
        XCTAssertEqual(read.notes, [])

        let wrongNamespace = try packet(#"<rdf:RDF \#(rdf)><rdf:Description xmlns:xmp="http://example.com/not-xmp/" xmp:Rating="5"/></rdf:RDF>"#)
        XCTAssertNil(wrongNamespace.rating, "a prefix means nothing without its namespace")
    }

    func testDatesAndRatingsOutsideTheirFormsAreNotedNotGuessed() throws {
        XCTAssertEqual(XMPDate.iso("2008-04-20T19:12:06+02:00"), "2008-04-20T19:12:06+02:00")
        XCTAssertEqual(XMPDate.iso("2008-04-20T19:12"), "2008-04-20T19:12:00")
        XCTAssertEqual(XMPDate.iso("2008-04-20"), "2008-04-20T00:00:00")
        for bad in ["2008", "2008-04", "2008-13-01", "20080420", "2008-04-20T25:00", "2008-04-20 19:12:06", "yesterday"] {
            XCTAssertNil(XMPDate.iso(bad), bad)
        }
        let read = try packet(#"<rdf:RDF \#(rdf)><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="6" xmp:CreateDate="soon"/></rdf:RDF>"#)
        XCTAssertNil(read.rating)
        XCTAssertNil(read.taken)
        XCTAssertEqual(read.notes, ["xmp:Rating '6' is not a rating from -1 to 5", "xmp:CreateDate 'soon' is not a date"])
        XCTAssertEqual(try packet(#"<rdf:RDF \#(rdf)><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="-1"/></rdf:RDF>"#).rating, -1)
    }

    func testEntitiesDTDsAndExternalFilesAreNeverRead() throws {
        // Nine levels of ten: a billion "lol"s if expanded.
        var entities = #"<!ENTITY l0 "lol">"#
        for level in 1...9 { entities += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">" }
        let bomb = "<?xml version=\"1.0\"?><!DOCTYPE x [\(entities)]><rdf:RDF \(rdf)><rdf:Description xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:title>&l9;</dc:title></rdf:Description></rdf:RDF>"
        let external = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/hostname\">]><rdf:RDF \(rdf)><rdf:Description xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:title>&e;</dc:title></rdf:Description></rdf:RDF>"
        let externalDTD = "<?xml version=\"1.0\"?><!DOCTYPE x SYSTEM \"http://127.0.0.1:9/x.dtd\"><rdf:RDF \(rdf)/>"
        for document in [bomb, external, externalDTD] {
            XCTAssertThrowsError(try packet(document)) { error in
                XCTAssert("\(error)".contains("DTD") || "\(error)".contains("entity"), "\(error)")
            }
        }
    }

    /// libxml2's own limits stay on (never XML_PARSE_HUGE): past 256 levels of nesting it stops, in its words.
    func testLibxml2sLimitsStay() throws {
        let deep = String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)
        XCTAssertThrowsError(try packet(deep)) { error in
            XCTAssert("\(error)".contains("Excessive depth in document: 256"), "\(error)")
        }
    }

    func testWhatIsNotXMLOrNotXMPSaysSoWithLibxml2sWords() throws {
        XCTAssertThrowsError(try packet("<a><b></a>")) { error in
            XCTAssertEqual("\(error)", "it is not well-formed XML: line 1: Opening and ending tag mismatch: b line 1 and a")
        }
        XCTAssertThrowsError(try packet("")) { error in XCTAssertEqual("\(error)", "it is not well-formed XML: the file is empty") }
        XCTAssertThrowsError(try packet("<svg xmlns=\"http://www.w3.org/2000/svg\"/>")) { error in
            XCTAssertEqual("\(error)", "it is XML but not XMP: it has no rdf:RDF element (its root is <svg>)")
        }
    }
}
