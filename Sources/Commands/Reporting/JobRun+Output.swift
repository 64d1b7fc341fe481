import JobFile
import Run
import Service

extension JobRun {
    /// The run as the command line's output flags shape it (`--log-format`, `--verbose`, `--progress`): their
    /// reporters, the streams whose failure stops the run, and where the notes go.
    init(job: Job, options: RunOptions, output: RunOutput) {
        self.init(job: job, options: options, observer: output.reporters(for: job), mainStreams: output.mainStreams,
                  verbose: output.verbose, announcesReport: output.logFormat != .json && !output.quiet)
    }
}
