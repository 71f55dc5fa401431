#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Sluice
import SluiceTesting
import Testing

/// What rules share: subscribing a fresh recorder to a fresh entry, awaiting its events
/// (synchronous entries must already have delivered; asynchronous ones are awaited, never
/// slept on), and checking that references go away.
extension Entry {
    /// A fresh source with a fresh recorder subscribed to it.
    func subscribe(
        initialDemand: Subscribers.Demand, demandPerValue: Subscribers.Demand = .none,
        source: Source? = nil
    ) -> (Source, Recorder) {
        let source = source ?? make()
        let recorder = Recorder(initialDemand: initialDemand, demandPerValue: demandPerValue)
        source.subscribe(recorder)
        return (source, recorder)
    }

    /// Waits for at least `count` values: a synchronous entry must have delivered them
    /// already (checked, not awaited, so a bug fails instead of hanging).
    func awaitValues(_ count: Int, of recorder: Recorder, sourceLocation: SourceLocation = #_sourceLocation) async {
        if isSynchronous {
            #expect(recorder.values.count >= count, "\(name) delivered synchronously", sourceLocation: sourceLocation)
        } else {
            await recorder.waitForValues(count: count)
        }
    }

    /// Waits for the completion (see ``awaitValues(_:of:sourceLocation:)``).
    @discardableResult
    func awaitCompletion(of recorder: Recorder, sourceLocation: SourceLocation = #_sourceLocation) async
        -> Subscribers.Completion<TestFailure>?
    {
        if isSynchronous {
            #expect(recorder.completion != nil, "\(name) completed synchronously", sourceLocation: sourceLocation)
            return recorder.completion
        }
        return await recorder.waitForCompletion()
    }
}

/// Waits until `condition` holds, yielding to other tasks between checks (never sleeping),
/// for at most a generous deadline; returns whether it held. For things that happen on
/// their own in another task, such as a finished task releasing its subscriber.
func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: Patience.current)
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        await Task.yield()
    }
    return true
}

/// Runs long synchronous work on a thread of its own, so it does not hold a thread of the
/// cooperative pool (2 on a 2-core machine) that the asynchronous rules need.
func offTheCooperativePool(_ work: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            work()
            continuation.resume()
        }
    }
}

/// Moves a value that is safe to share but not declared `Sendable` into a `@Sendable` closure.
///
/// Safe for what the rules put in it: recorders and sources whose state is behind locks
/// (a non-`Sendable` publisher existential, thread-safe by the contract under test).
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// How long ``eventually(_:)`` waits before it gives up: 20 seconds, for the rules; the mutant
/// tests, which expect the wait to fail, shorten it.
enum Patience {
    @TaskLocal static var current: Duration = .seconds(20)
}

/// Gives up the processor, so that another thread runs: inside a signal, it holds the signal
/// open while other threads go on (what makes overlapping signals visible).
func yieldThread() {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    sched_yield()
    #endif
}
