import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension MarkerBench {
    /// One marker from start to exit, against the naive C program drawing the same marker, in turn.
    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Time `markerpaint --distance 123 --end --dark` start to exit against the naive C program, in turn, a new process each run.",
            discussion: """
                Each run spawns both programs one after the other (which goes first alternates), with \
                posix_spawn and waitpid and nothing between them, and times each from spawn to exit. \
                Prints the median and the 10th and 90th percentiles of each, and the ratio of the medians.
                """
        )

        @Option(help: "Runs of each program.") var runs = 40
        @Option(help: "The markerpaint executable (default: the one beside this benchmark).") var markerpaint: String?
        @Option(help: "The naive C program (default: naive-marker beside this benchmark).") var naive: String?
        @Option(help: ArgumentHelp("Folder to write the markers into (a new subfolder, removed afterwards).", valueName: "dir"))
        var scratch = "."

        func validate() throws {
            guard (5...10_000).contains(runs) else { throw ValidationError("--runs must be 5 to 10000") }
        }

        func run() throws {
            let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            let markerpaint = self.markerpaint ?? folder.appendingPathComponent("markerpaint").path
            let naive = self.naive ?? folder.appendingPathComponent("naive-marker").path
            let work = URL(fileURLWithPath: scratch).appendingPathComponent(".markerpaint-bench-start-\(getpid())").path
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: work) }
            let commands = [
                [naive, work + "/naive.png"],
                [markerpaint, "--distance", "123", "--end", "--dark", "--out", work],
            ]
            // Warm the page cache and the fonts' caches first.
            for command in commands { for _ in 0..<3 { _ = try Self.time(command) } }
            var times: [[Double]] = [[], []]
            for run in 0..<runs {
                for which in run.isMultiple(of: 2) ? [0, 1] : [1, 0] { times[which].append(try Self.time(commands[which])) }
            }
            func percentile(_ values: [Double], _ fraction: Double) -> Double {
                values.sorted()[min(values.count - 1, Int(Double(values.count - 1) * fraction + 0.5))]
            }
            print("\(runs) runs each, in turn, \(ProcessInfo.processInfo.activeProcessorCount) cores")
            for (name, values) in zip(["naive C (naive-marker)", "markerpaint --distance 123 --end --dark"], times) {
                let figures = String(
                    format: "median %.2f ms (10th %.2f, 90th %.2f)", percentile(values, 0.5) * 1000, percentile(values, 0.1) * 1000,
                    percentile(values, 0.9) * 1000)
                print(name.padding(toLength: 42, withPad: " ", startingAt: 0) + figures)
            }
            print(String(format: "ratio: markerpaint %.2f× the naive C program (the goal: ≤ 1.30×)", percentile(times[1], 0.5) / percentile(times[0], 0.5)))
        }

        /// Seconds from spawning `command` to its exit, which must be 0; its output goes to /dev/null.
        static func time(_ command: [String]) throws -> Double {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            var arguments: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
            defer { for argument in arguments { free(argument) } }
            var start = timespec()
            clock_gettime(CLOCK_MONOTONIC, &start)
            var pid: pid_t = 0
            let status = posix_spawn(&pid, command[0], &actions, nil, &arguments, environ)
            guard status == 0 else { throw CommandFailure("cannot start \(command[0]): \(String(cString: strerror(status)))") }
            var exit: Int32 = 0
            while waitpid(pid, &exit, 0) < 0 && errno == EINTR {}
            var end = timespec()
            clock_gettime(CLOCK_MONOTONIC, &end)
            guard exit == 0 else { throw CommandFailure("\(command[0]) exited with status \(exit)") }
            return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
        }
    }
}
