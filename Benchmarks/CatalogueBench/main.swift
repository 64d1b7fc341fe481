// album-catalogue-bench: issue 7's "catalogue write throughput (step rows per second)", measured on album's own
// write path rather than inferred from whole runs.
//
//     album-catalogue-bench CATALOGUE [--rounds N] [--producers N] [--steps-per-photo N]
//
// CATALOGUE is an existing catalogue folder with photos in it (make bench passes a copy of its 10 000-photo
// catalogue). Each round begins a run and records `steps-per-photo` step rows for every photo exactly as the
// scheduler does: `StepRecord`s handed to `CatalogueOwner.async` from `producers` threads at once (the workers),
// written on the owner's serial queue in 500-row transactions (WAL, synchronous=NORMAL, foreign keys on, the
// statement cache), timed until `finish()` has committed the last one. The rows are then counted back from the
// catalogue; a round that lost any fails the benchmark. One JSON line per round on standard output.

import Catalogue
import Core
import Dispatch
import Foundation
import Run

struct Options {
    var catalogue = ""
    var rounds = 3
    var producers = 2
    var stepsPerPhoto = 4

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func number(_ flag: String) throws -> Int {
            guard let text = rest.popFirst(), let value = Int(text), value > 0 else {
                throw BenchError("\(flag) needs a positive whole number")
            }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--rounds": rounds = try number(argument)
            case "--producers": producers = try number(argument)
            case "--steps-per-photo": stepsPerPhoto = try number(argument)
            case "-h", "--help":
                print("usage: album-catalogue-bench CATALOGUE [--rounds N] [--producers N] [--steps-per-photo N]")
                exit(0)
            default:
                guard catalogue.isEmpty, !argument.hasPrefix("-") else { throw BenchError("unexpected argument \(argument)") }
                catalogue = argument
            }
        }
        guard !catalogue.isEmpty else { throw BenchError("usage: album-catalogue-bench CATALOGUE [--rounds N] [--producers N]") }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The rows one photo's chain writes: the stages of Benchmarks/thumbnail.yml (and a filter, past four), with
/// parameters and hashes of the sizes album writes.
func steps(run: Int64, photo: PhotoRecord, count: Int) -> [StepRecord] {
    let stages: [(StageName, String)] = [
        (.import, #"{"from":["/srv/photos"],"mode":"reference","recursive":true}"#),
        (.thumbnail, #"{"crop":"centre","fit":"cover","format":"jpeg","quality":70,"size":"240x240"}"#),
        (.export, #"{"from":"thumbnail","if-exists":"replace","metadata":"keep","to":"/srv/out/{name}.jpg"}"#),
        (.filter, #"{"preset":"sepia","recipe":[{"sepia":{"amount":1}}]}"#),
    ]
    return (0..<count).map { i in
        let (stage, parameters) = stages[i % stages.count]
        return StepRecord(run: run, photo: photo.id, path: photo.path, stage: stage, parameters: parameters,
                          inputHash: photo.hash, outputHash: String(photo.hash.reversed()),
                          milliseconds: Double(i) + 0.25, status: .done, error: nil)
    }
}

func round(_ options: Options, photos: [PhotoRecord]) throws -> (rows: Int, seconds: Double) {
    let catalogue = try Catalogue(folder: options.catalogue, create: false, writing: true)
    defer { catalogue.close() }
    let run = try catalogue.beginRun(job: "catalogue-bench", jobPath: nil, jobHash: nil, started: Timestamp.now(),
                                     software: .current)
    // Built before the clock starts: the scheduler's workers have their rows in hand when they queue them.
    let rows = photos.map { steps(run: run, photo: $0, count: options.stepsPerPhoto) }
    let owner = CatalogueOwner(catalogue)
    let start = DispatchTime.now()
    DispatchQueue.concurrentPerform(iterations: options.producers) { producer in
        for index in stride(from: producer, to: rows.count, by: options.producers) {
            for step in rows[index] {
                owner.async { try $0.record(step) }
            }
        }
    }
    if let error = owner.finish() { throw error }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let written = try catalogue.stepCounts(run: run).values.reduce(0) { $0 + $1.values.reduce(0, +) }
    let expected = photos.count * options.stepsPerPhoto
    guard written == expected else { throw BenchError("round wrote \(written) step rows, expected \(expected)") }
    try catalogue.finishRun(run, finished: Timestamp.now(), status: "finished", counts: "{}")
    return (written, seconds)
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let reader = try CatalogueReader(folder: options.catalogue)
    let photos = try reader.allPhotos()
    reader.close()
    guard !photos.isEmpty else { throw BenchError("\(options.catalogue) has no photos to write steps for") }
    for number in 1...options.rounds {
        let (rows, seconds) = try round(options, photos: photos)
        print(#"{"round":\#(number),"photos":\#(photos.count),"producers":\#(options.producers),"rows":\#(rows),"#
              + #""seconds":\#(String(format: "%.3f", seconds)),"rows_per_second":\#(Int(Double(rows) / seconds))}"#)
    }
} catch {
    FileHandle.standardError.write(Data("album-catalogue-bench: \(error)\n".utf8))
    exit(1)
}
