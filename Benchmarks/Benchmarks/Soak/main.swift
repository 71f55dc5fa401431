// The soak of issue 29, as a user's app would load a subject: two threads sending into a
// `PassthroughSubject` as fast as they can; two threads subscribing and cancelling sinks
// (behind `map`/`filter`, and through `share()`); `for await` loops over `values` taking 50
// elements, every other one cancelled at once. It prints the peak resident memory, the
// subscribe/cancel rounds completed and the values seen out of order per sender.
//
//     swift run -c release --package-path Benchmarks --scratch-path Benchmarks/.build-soak \
//         Soak sluice 15        # or: Soak opencombine 15 (no `values` loops: it has none),
//                               # or: Soak sluice-without-loops 15 (OpenCombine's load)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
let contender = arguments.count > 1 ? arguments[1] : "sluice"
let seconds = arguments.count > 2 ? Double(arguments[2]) ?? 15 : 15

let report: SoakReport
switch contender {
case "opencombine": report = openCombineSoak(seconds: seconds)
case "sluice-without-loops": report = sluiceSoak(seconds: seconds, valuesLoops: false)
default: report = sluiceSoak(seconds: seconds)
}
print(
    "\(contender): \(seconds) s, peak RSS \(peakResidentMiB()) MiB, rounds \(report.rounds), values loops \(report.loops), "
        + "order violations \(report.violations), sent \(report.sent)"
)
