import Foundation
import Testing

/// The numbers of the snippet's lines that end with `marker`.
private func lines(of source: String, markedWith marker: String) -> Set<Int> {
    Set(source.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        .filter { $0.element.hasSuffix(marker) }.map { $0.offset + 1 })
}

/// The numbers of the lines of `main.swift` that the compiler reported a `kind` ("error",
/// "warning") on.
private func lines(in output: String, with kind: String) -> Set<Int> {
    Set(output.split(separator: "\n").compactMap { line -> Int? in
        guard let range = line.range(of: "main.swift:"), line.contains(": \(kind): ") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    })
}

#if os(Linux)
/// `Scheduler`'s requirements are `@preconcurrency`, so that code written against Combine's
/// protocol compiles; these check that this costs nothing where Sluice's own schedulers are
/// named (or a generic `SendableActionScheduler`): there, a closure that could race is still an
/// error, not a warning.
@Suite("Swift 6 rejects an action that could race on Sluice's schedulers", .timeLimit(.minutes(12)))
struct SchedulerIsolationCompileTests {
    @Test("a closure capturing non-Sendable state, written at a call on a Sluice scheduler, is an error")
    func nonSendableCaptureIsRejected() throws {
        let source = """
            import Foundation
            import Sluice
            import SluiceFoundation
            import SluiceTesting
            final class Counter { var value = 0 }
            func direct(_ counter: Counter, _ queue: OperationQueue) {
                let main = DispatchQueue.main
                main.schedule { counter.value += 1 }  // rejected
                main.schedule(options: nil) { counter.value += 1 }  // rejected
                main.schedule(after: main.now) { counter.value += 1 }  // rejected
                main.schedule(after: main.now, tolerance: .zero, options: nil) { counter.value += 1 }  // rejected
                _ = main.schedule(after: main.now, interval: .seconds(1)) { counter.value += 1 }  // rejected
                _ = main.schedule(after: main.now, interval: .seconds(1), tolerance: .zero, options: nil) { counter.value += 1 }  // rejected
                RunLoop.main.schedule { counter.value += 1 }  // rejected
                queue.schedule(options: nil) { counter.value += 1 }  // rejected
                ImmediateScheduler.shared.schedule { counter.value += 1 }  // rejected
                ClockScheduler<ContinuousClock>.mainActor.schedule { counter.value += 1 }  // rejected
                AnyScheduler(main).schedule { counter.value += 1 }  // rejected
                DispatchQueue.test.schedule { counter.value += 1 }  // rejected
                DispatchQueue.immediate.schedule(options: nil) { counter.value += 1 }  // rejected
            }
            func generic<S: SendableActionScheduler>(_ scheduler: S, _ counter: Counter) {
                scheduler.schedule { counter.value += 1 }  // rejected
                scheduler.schedule(options: nil) { counter.value += 1 }  // rejected
                _ = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { counter.value += 1 }  // rejected
            }
            """
        let result = try compile(source)
        #expect(result.status != 0)
        let rejected = lines(of: source, markedWith: "// rejected")
        #expect(rejected.count == 16)
        #expect(lines(in: result.output, with: "error") == rejected, "\(result.output)")
        #expect(result.output.contains("capture of 'counter' with non-Sendable type 'Counter' in a '@Sendable' closure"))
    }

    @Test("a main-actor closure handed to a Sluice scheduler is an error, also when it only reads")
    func mainActorClosureIsRejected() throws {
        let source = """
            import Foundation
            import Sluice
            import SluiceFoundation
            @MainActor final class ViewModel {
                var title = ""
                func refresh(_ queue: DispatchQueue, _ runLoop: RunLoop) {
                    queue.schedule { self.title = "loaded" }  // rejected
                    queue.schedule(after: queue.now.advanced(by: .seconds(1))) { print(self.title) }  // rejected
                    runLoop.schedule(options: nil) { self.title = "" }  // rejected
                    DispatchQueue.global().schedule { print("no state of the actor: fine") }
                }
            }
            """
        let result = try compile(source)
        #expect(result.status != 0)
        #expect(lines(in: result.output, with: "error") == lines(of: source, markedWith: "// rejected"), "\(result.output)")
        #expect(result.output.contains("main actor-isolated property 'title' can not be mutated from a Sendable closure"))
    }

    @Test("code written against Combine's Scheduler compiles, and warns where it is not checked")
    func combineShapedCodeCompilesWithWarnings() throws {
        let source = """
            import Dispatch
            import Sluice
            // A conformer declaring Combine's signatures, one of them non-escaping.
            struct InlineScheduler: Scheduler {
                var now: ImmediateScheduler.SchedulerTimeType { ImmediateScheduler.shared.now }
                var minimumTolerance: ImmediateScheduler.SchedulerTimeType.Stride { .zero }
                func schedule(options: Never?, _ action: () -> Void) { action() }
                func schedule(after date: ImmediateScheduler.SchedulerTimeType, tolerance: ImmediateScheduler.SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) { action() }
                func schedule(after date: ImmediateScheduler.SchedulerTimeType, interval: ImmediateScheduler.SchedulerTimeType.Stride, tolerance: ImmediateScheduler.SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void) -> any Cancellable { action(); return AnyCancellable {} }
            }
            // A type eraser made of unapplied references typed with Combine's actions.
            struct Erased<Time: Strideable, Options> where Time.Stride: SchedulerTimeIntervalConvertible {
                let body: (Options?, @escaping () -> Void) -> Void
                init<S: Scheduler<Time>>(_ scheduler: S) where S.SchedulerOptions == Options {
                    body = scheduler.schedule  // deprecated
                }
            }
            // A generic timer whose action captures a non-Sendable object.
            final class Ticker<S: Scheduler> {
                let scheduler: S
                var ticks = 0
                init(_ scheduler: S) { self.scheduler = scheduler }
                func start() -> any Cancellable {
                    scheduler.schedule(after: scheduler.now, interval: .seconds(1), tolerance: .zero, options: nil) { self.ticks += 1 }  // warned
                }
            }
            // An action received as a parameter and passed on to the main queue.
            func onMain(_ action: @escaping () -> Void) {
                DispatchQueue.main.schedule(after: DispatchQueue.main.now, tolerance: .zero, options: nil, action)  // deprecated
                DispatchQueue.main.schedule(action)  // warned
            }
            _ = Erased<ImmediateScheduler.SchedulerTimeType, Never>(InlineScheduler())
            _ = Ticker(InlineScheduler()).start()
            onMain {}
            """
        let result = try compile(source)
        #expect(result.status == 0, "\(result.output)")
        #expect(lines(in: result.output, with: "error").isEmpty)
        let deprecated = lines(of: source, markedWith: "// deprecated")
        let warned = lines(of: source, markedWith: "// warned").union(deprecated)
        #expect(lines(in: result.output, with: "warning") == warned, "\(result.output)")
        let deprecations = result.output.split(separator: "\n")
            .filter { $0.contains("main.swift:") && $0.contains("is deprecated: the action is not Sendable") }
        #expect(deprecations.count == deprecated.count, "\(result.output)")
    }
}
#endif
