import XCTest

/// Issue 34: a command that lists the catalogue streams it, and a run and a plan look photos up one by one, so their
/// peak memory does not grow with the library. Two catalogues, of 2 001 and of 20 001 photos, are made cheaply
/// (`ScaleLibrary`: every photo `ok`, so a rerun is a no-op); `ls`, the no-op rerun and `album plan` over the larger
/// must stay within 10 % + 4 MB of the smaller. Sizes only: no time is asserted.
final class ScaleMemoryTests: XCTestCase {
    /// The two catalogues are made once (most of the test's time) for the listings, then the run and the plan.
    func testListingRunningAndPlanningTenTimesMorePhotosTakeNoMoreMemory() throws {
        let small = try ScaleLibrary.make(2_000, for: self), large = try ScaleLibrary.make(20_000, for: self)
        try checkListings(small: small, large: large)
        try checkNoOpRerunAndPlan(small: small, large: large)
    }

    func checkListings(small: String, large: String) throws {
        // Each photo is as many lines as any other (copies of one photo); a JSON array adds its `[` and `]`.
        let listings: [(arguments: [String], brackets: Int)] = [(["ls", "-q"], 0), (["ls", "--json"], 2), (["ls", "--json", "--renditions"], 2)]
        for listing in listings {
            let before = try ScaleLibrary.measured(listing.arguments, in: small)
            let after = try ScaleLibrary.measured(listing.arguments, in: large)
            print("ScaleMemoryTests: album \(listing.arguments.joined(separator: " ")): 2 001 photos \(before.kilobytes) KB, 20 001 photos \(after.kilobytes) KB")
            // The listing is whole: every photo, in as many lines as in the smaller catalogue.
            let smallLines = before.stdout.split(separator: "\n", omittingEmptySubsequences: false).count - 1 - listing.brackets
            let largeLines = after.stdout.split(separator: "\n", omittingEmptySubsequences: false).count - 1 - listing.brackets
            XCTAssertEqual(smallLines % 2_001, 0, "\(listing.arguments): \(smallLines) lines")
            XCTAssertEqual(largeLines, smallLines / 2_001 * 20_001, "\(listing.arguments): \(smallLines) and \(largeLines) lines")
            XCTAssertLessThanOrEqual(after.kilobytes, before.kilobytes * 11 / 10 + 4_096,
                                     "album \(listing.arguments.joined(separator: " ")) grew from \(before.kilobytes) KB to \(after.kilobytes) KB with ten times the photos")
        }
        // Every photo is ok: the state was decided from each photo's own rows, and its file's stat matched.
        let states = try TestSupport.album(["ls", "--state", "ok", "-q"], in: large)
        XCTAssertEqual(states.stdout.split(separator: "\n").count, 20_001, states.stderr)
    }

    /// The run's and the plan's catalogue lookups are per photo (`CatalogueSnapshot`), no longer a copy of the whole
    /// catalogue (about 5 KB a photo before), and a run's work item is a path, not a photo's room: both keep within
    /// the listings' margin. What still grows, under 0.1 KB a photo (Benchmarks/INVESTIGATION.md section 37): the
    /// scan's compact lists of paths and stats, and each settled photo's id, well inside 4 MB at 18 000 photos.
    func checkNoOpRerunAndPlan(small: String, large: String) throws {
        for arguments in [["run", "job.yml", "--quiet"], ["plan", "job.yml"]] {
            let before = try ScaleLibrary.measured(arguments, in: small)
            let after = try ScaleLibrary.measured(arguments, in: large)
            print("ScaleMemoryTests: album \(arguments.joined(separator: " ")): 2 001 photos \(before.kilobytes) KB, 20 001 photos \(after.kilobytes) KB")
            XCTAssertLessThanOrEqual(after.kilobytes, before.kilobytes * 11 / 10 + 4_096,
                                     "album \(arguments.joined(separator: " ")) grew from \(before.kilobytes) KB to \(after.kilobytes) KB with ten times the photos")
        }
        // Both were no-ops: the plan finds every photo up to date in every stage.
        let plan = try TestSupport.album(["plan", "job.yml"], in: large)
        XCTAssertEqual(plan.status, 0, plan.stderr)
        for stage in ["import", "thumbnail"] {
            let line = plan.stdout.split(separator: "\n").first { $0.split(separator: " ").first.map(String.init) == stage }
            XCTAssertEqual(line?.split(separator: " ").dropFirst().prefix(2).map(String.init), ["0", "20001"], plan.stdout)
        }
    }
}
