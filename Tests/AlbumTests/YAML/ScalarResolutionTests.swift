import XCTest
@testable import YAML

/// YAML 1.2 core-schema resolution of plain scalars, one test per rule, and
/// the refusal of scalars other YAML tools read differently.
final class ScalarResolutionTests: XCTestCase {
    private func value(_ scalar: String) throws -> Node.Value {
        try YAMLParser.parse(string: "v: \(scalar)\n", file: "t.yaml")["v"]!.value
    }

    private func rejected(_ scalar: String, _ phrase: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let v = try value(scalar)
            XCTFail("'\(scalar)' accepted as \(v)", file: file, line: line)
        } catch let list as DiagnosticList {
            XCTAssertTrue(list.diagnostics.contains { $0.message.contains(phrase) }, list.rendered(), file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    func testNull() throws {
        for s in ["null", "Null", "NULL", "~", ""] { XCTAssertEqual(try value(s), .null, s) }
        for s in ["nULL", "nil", "None"] { XCTAssertEqual(try value(s), .string(s), s) }
    }

    func testBool() throws {
        for s in ["true", "True", "TRUE"] { XCTAssertEqual(try value(s), .bool(true), s) }
        for s in ["false", "False", "FALSE"] { XCTAssertEqual(try value(s), .bool(false), s) }
        for s in ["yes", "no", "on", "off", "y", "n", "tRUE"] { XCTAssertEqual(try value(s), .string(s), s) }
    }

    func testDecimalInt() throws {
        XCTAssertEqual(try value("0"), .int(0))
        XCTAssertEqual(try value("-17"), .int(-17))
        XCTAssertEqual(try value("+17"), .int(17))
        XCTAssertEqual(try value("007"), .int(7))
        XCTAssertEqual(try value("9223372036854775807"), .int(Int.max))
        XCTAssertEqual(try value("-9223372036854775808"), .int(Int.min))
    }

    func testOctalAndHexInt() throws {
        XCTAssertEqual(try value("0o17"), .int(15))
        XCTAssertEqual(try value("0x1F"), .int(31))
        XCTAssertEqual(try value("0xabcDEF"), .int(0xABCDEF))
        for s in ["0o8", "0x", "0o", "0xg", "0X1F", "0O17"] { XCTAssertEqual(try value(s), .string(s), s) }
    }

    func testIntegerOverflowIsAnError() {
        rejected("9223372036854775808", "integer out of range")
        rejected("-9223372036854775809", "integer out of range")
        rejected("0x10000000000000000", "integer out of range")
    }

    func testFloat() throws {
        let cases: [(String, Double)] = [("1.0", 1), ("-1.5", -1.5), ("+2.5", 2.5), (".5", 0.5), ("-.5", -0.5),
                                         ("1.", 1), ("1e3", 1000), ("1E-3", 0.001), ("2.5e+2", 250), ("0.0", 0)]
        for (s, d) in cases { XCTAssertEqual(try value(s), .float(d), s) }
        XCTAssertEqual(try value("1e400"), .float(.infinity))
    }

    func testSpecialFloats() throws {
        for s in [".inf", ".Inf", ".INF", "+.inf"] { XCTAssertEqual(try value(s), .float(.infinity), s) }
        for s in ["-.inf", "-.Inf", "-.INF"] { XCTAssertEqual(try value(s), .float(-.infinity), s) }
        for s in [".nan", ".NaN", ".NAN"] {
            guard case .float(let d) = try value(s) else { return XCTFail(s) }
            XCTAssertTrue(d.isNaN, s)
        }
        for s in ["inf", "nan", ".Nan", "-.nan", "1.2.3", ".e5", "1e", "+", "-.", "1,000"] {
            XCTAssertEqual(try value(s), .string(s), s)
        }
    }

    func testStringsThatLookSpecial() throws {
        XCTAssertEqual(try value("2024-06-01"), .string("2024-06-01"))
        XCTAssertEqual(try value("12:30"), .string("12:30"))
        XCTAssertEqual(try value("="), .string("="))
    }

    func testQuotedAndBlockScalarsAreAlwaysStrings() throws {
        let node = try YAMLParser.parse(string: "a: '1'\nb: \"true\"\nc: |\n  null\nd: >-\n  2.5\n", file: "t")
        XCTAssertEqual(node["a"]?.value, .string("1"))
        XCTAssertEqual(node["b"]?.value, .string("true"))
        XCTAssertEqual(node["c"]?.value, .string("null\n"))
        XCTAssertEqual(node["d"]?.value, .string("2.5"))
    }

    func testAmbiguousNumbersAreRejected() {
        for s in ["1_000", "0b101", "-0x1F", "+0o7", ".5e3", "1_0.5"] { rejected(s, "ambiguous value") }
    }

    func testTimestampsOtherThanPlainDatesAreRejected() {
        rejected("2024-06-01T10:00:00Z", "timestamp-like value")
        rejected("2024-6-1 10:00:00", "timestamp-like value")
    }

    func testIntAndFloatStayDistinctInJSON() throws {
        let node = try YAMLParser.parse(string: "[1, 1.0, 1e2, .inf, -.inf, .nan]", file: "t")
        XCTAssertEqual(node.jsonText(pretty: false), "[1,1.0,100.0,\".inf\",\"-.inf\",\".nan\"]")
    }
}
