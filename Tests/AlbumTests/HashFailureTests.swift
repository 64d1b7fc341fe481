import Foundation
import System
import XCTest

/// A libcrypto that cannot compute SHA-256 is an error album says, never an empty hash it records: every
/// `EVP_Digest*` return code is checked (`SHA256`). The failure is made for real, with an OpenSSL configuration that
/// loads only the null provider, which offers no digest at all.
final class HashFailureTests: XCTestCase {
    /// An `OPENSSL_CONF` under which `EVP_DigestInit_ex` fails for SHA-256.
    func nullProvider(in folder: String) throws -> [String: String] {
        let config = try TestSupport.write("""
            openssl_conf = openssl_init
            [openssl_init]
            providers = provider_sect
            [provider_sect]
            null = null_sect
            [null_sect]
            activate = 1

            """, to: "null-provider.cnf", in: folder)
        return ["OPENSSL_CONF": config]
    }

    func testACommandStopsWithLibcryptosReasonInsteadOfRecordingAnEmptyHash() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/a.jpg")
        _ = try TestSupport.write("version: 1\nstages:\n  - import: {from: photos}\n", to: "job.yml", in: folder)
        let environment = try nullProvider(in: folder)

        let imported = try TestSupport.album(["import", "photos", "--catalogue", "album"], in: folder, environment: environment)
        XCTAssertEqual(imported.status, 3, imported.stderr)
        XCTAssert(imported.stderr.contains("album: error: cannot EVP_DigestInit_ex: "), imported.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/album/catalogue.db"), "nothing recorded")

        let checked = try TestSupport.album(["check", "job.yml"], in: folder, environment: environment)
        XCTAssertEqual(checked.status, 3, "a job file whose hash cannot be computed is not valid: \(checked.stderr)")
        XCTAssert(checked.stderr.contains("cannot EVP_DigestInit_ex"), checked.stderr)

        // The same commands work with libcrypto's default configuration, and the hash is SHA-256's.
        XCTAssertEqual(try TestSupport.album(["import", "photos", "--catalogue", "album"], in: folder).status, 0)
        XCTAssertEqual(try SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
