import Foundation
import Synchronization
import XCTest
@testable import Run

/// `PixelBudget` on real threads: what a body sees of the others is recorded under a lock, and every assertion is
/// about order (who was inside when), never about how long something took. Waits are bounded only so that a
/// broken budget fails the test instead of hanging it; on a loaded machine they only take longer.
final class PixelBudgetTests: XCTestCase {
    /// A minute from now: long enough for any loaded machine; reaching it is a failure, never a measurement.
    var patience: DispatchTime { .now() + .seconds(60) }

    /// The reservations inside their bodies right now, and the most pixels ever inside at once.
    final class Inside: Sendable {
        let state = Mutex((now: [String: Int](), peak: 0, log: [String]()))
        func enter(_ name: String, _ pixels: Int) {
            state.withLock {
                $0.now[name] = pixels
                $0.peak = max($0.peak, $0.now.values.reduce(0, +))
                $0.log.append("\(name) in with \($0.now.keys.sorted().joined(separator: ","))")
            }
        }
        func leave(_ name: String) { state.withLock { _ = $0.now.removeValue(forKey: name) } }
        var log: [String] { state.withLock { $0.log } }
        var peak: Int { state.withLock { $0.peak } }
    }

    /// Starts a thread that reserves `pixels` and stays inside until `release` is signalled.
    func hold(_ budget: PixelBudget, _ name: String, _ pixels: Int, inside: Inside, entered: DispatchSemaphore,
              release: DispatchSemaphore, done: DispatchSemaphore) {
        let patience = self.patience
        Thread {
            budget.withReservation(pixels) {
                inside.enter(name, pixels)
                entered.signal()
                _ = release.wait(timeout: patience)
                inside.leave(name)
            }
            done.signal()
        }.start()
    }

    func testAReservationBeyondTheBudgetWaitsAndOneWithinItDoesNot() {
        let budget = PixelBudget(megapixels: 10)
        let inside = Inside()
        let (aIn, aRelease, aDone) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        hold(budget, "A", 6_000_000, inside: inside, entered: aIn, release: aRelease, done: aDone)
        XCTAssertEqual(aIn.wait(timeout: patience), .success)

        // B's 6 MP do not fit beside A's 6: it waits. C's 4 MP fit: C gets in while A is still inside.
        let (bIn, bRelease, bDone) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        hold(budget, "B", 6_000_000, inside: inside, entered: bIn, release: bRelease, done: bDone)
        let (cIn, cRelease, cDone) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        hold(budget, "C", 4_000_000, inside: inside, entered: cIn, release: cRelease, done: cDone)
        XCTAssertEqual(cIn.wait(timeout: patience), .success, "4 MP beside 6 MP fit a 10 MP budget")
        XCTAssertEqual(bIn.wait(timeout: .now() + .milliseconds(300)), .timedOut, "B got in beside A and C: \(inside.log)")

        aRelease.signal()
        XCTAssertEqual(bIn.wait(timeout: patience), .success, "B gets in once A is out: 6 MP beside C's 4 fit")
        bRelease.signal()
        cRelease.signal()
        for done in [aDone, bDone, cDone] { XCTAssertEqual(done.wait(timeout: patience), .success) }
        XCTAssertEqual(inside.log, ["A in with A", "C in with A,C", "B in with B,C"])
        XCTAssertLessThanOrEqual(inside.peak, 10_000_000)
    }

    func testAnOversizePhotoStillRunsButAlone() {
        let budget = PixelBudget(megapixels: 1)
        let inside = Inside()
        let (aIn, aRelease, aDone) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        hold(budget, "A", 500_000, inside: inside, entered: aIn, release: aRelease, done: aDone)
        XCTAssertEqual(aIn.wait(timeout: patience), .success)
        // 5 MP is over the whole 1 MP budget: it waits for A, then runs with nothing else inside.
        let (bigIn, bigRelease, bigDone) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        hold(budget, "big", 5_000_000, inside: inside, entered: bigIn, release: bigRelease, done: bigDone)
        XCTAssertEqual(bigIn.wait(timeout: .now() + .milliseconds(300)), .timedOut, "the oversize photo got in beside A: \(inside.log)")
        aRelease.signal()
        XCTAssertEqual(bigIn.wait(timeout: patience), .success, "an oversize photo still runs")
        // While it runs, even a small reservation waits.
        let (smallIn, smallRelease, smallDone) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        hold(budget, "small", 1, inside: inside, entered: smallIn, release: smallRelease, done: smallDone)
        XCTAssertEqual(smallIn.wait(timeout: .now() + .milliseconds(300)), .timedOut, "a photo got in beside the oversize one: \(inside.log)")
        bigRelease.signal()
        XCTAssertEqual(smallIn.wait(timeout: patience), .success)
        smallRelease.signal()
        for done in [aDone, bigDone, smallDone] { XCTAssertEqual(done.wait(timeout: patience), .success) }
        XCTAssertEqual(inside.log, ["A in with A", "big in with big", "small in with small"])
    }

    func testAReleaseWakesEveryWaiterThatNowFits() {
        let budget = PixelBudget(megapixels: 1)
        let inside = Inside()
        let (aIn, aRelease, aDone) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        hold(budget, "A", 1_000_000, inside: inside, entered: aIn, release: aRelease, done: aDone)
        XCTAssertEqual(aIn.wait(timeout: patience), .success)
        // Three waiters of 0.3 MP: none fits beside A; all three fit together once A is out.
        let waiters = ["B", "C", "D"].map { name in
            (name, DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        }
        for (name, entered, release, done) in waiters {
            hold(budget, name, 300_000, inside: inside, entered: entered, release: release, done: done)
        }
        for (name, entered, _, _) in waiters {
            XCTAssertEqual(entered.wait(timeout: .now() + .milliseconds(100)), .timedOut, "\(name) got in beside A: \(inside.log)")
        }
        aRelease.signal()
        for (name, entered, _, _) in waiters {
            XCTAssertEqual(entered.wait(timeout: patience), .success, "\(name) is woken by A's release")
        }
        // All three are inside at once: none has been released yet.
        XCTAssertEqual(inside.state.withLock { Set($0.now.keys) }, ["B", "C", "D"])
        for (_, _, release, done) in waiters {
            release.signal()
            XCTAssertEqual(done.wait(timeout: patience), .success)
        }
        XCTAssertEqual(aDone.wait(timeout: patience), .success)
        XCTAssertLessThanOrEqual(inside.peak, 1_000_000)
    }

    /// Eight threads reserving at random, oversize included: the pixels inside never exceed the budget, and an
    /// oversize reservation is always inside alone.
    func testManyThreadsNeverExceedTheBudget() {
        let budget = PixelBudget(megapixels: 4)
        let state = Mutex((inside: 0, count: 0, violations: [String]()))
        let group = DispatchGroup()
        for worker in 0..<8 {
            group.enter()
            Thread {
                var random = SystemRandomNumberGenerator()
                for round in 0..<200 {
                    let pixels = round % 37 == 0 ? 9_000_000 : Int.random(in: 1...2_500_000, using: &random)
                    budget.withReservation(pixels) {
                        let charged = min(pixels, 4_000_000)
                        state.withLock { state in
                            state.inside += charged
                            state.count += 1
                            if state.inside > 4_000_000 { state.violations.append("\(state.inside) px inside (worker \(worker))") }
                            if pixels > 4_000_000, state.count > 1 { state.violations.append("oversize beside \(state.count - 1)") }
                        }
                        state.withLock { state in
                            state.inside -= charged
                            state.count -= 1
                        }
                    }
                }
                group.leave()
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + .seconds(120)), .success, "the workers finished")
        XCTAssertEqual(state.withLock { $0.violations }, [])
        XCTAssertEqual(state.withLock { $0.inside }, 0)
    }
}
