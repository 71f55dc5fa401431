import Dispatch
import Foundation
import Sluice
import SluiceFoundation
import Synchronization

/// A subscriber that controls its own demand against a timer: it asks for three ticks, and
/// each time it has had them, asks for three more after a pause. The timer drops the ticks
/// that come while nobody asked (it never queues them), so the pause shows as a gap.
final class PacedSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Date
    typealias Failure = Never

    // `@unchecked Sendable`: the timer calls it on the run loop's thread and the pause ends on
    // a Dispatch thread; `subscription`, `ticks` and `finish` are guarded by `lock`.
    private let lock = NSLock()
    private var subscription: (any Subscription)?
    private var ticks: [Date] = []
    private var finish: CheckedContinuation<[Date], Never>?
    private let batch = 3
    private let total: Int
    private let pause: DispatchTimeInterval

    init(total: Int, pause: DispatchTimeInterval) {
        self.total = total
        self.pause = pause
    }

    func receive(subscription: any Subscription) {
        lock.withLock { self.subscription = subscription }
        subscription.request(.max(batch))
    }

    func receive(_ tick: Date) -> Subscribers.Demand {
        lock.lock()
        ticks.append(tick)
        let (count, subscription, finish) = (ticks.count, self.subscription, self.finish)
        let done = count == total
        if done { (self.subscription, self.finish) = (nil, nil) }
        let ticks = self.ticks
        lock.unlock()
        if done {
            subscription?.cancel()
            finish?.resume(returning: ticks)
        } else if count.isMultiple(of: batch) {
            // Asking inside receive(_:) would return the demand at once; ask after the pause.
            DispatchQueue.global().asyncAfter(deadline: .now() + pause) { self.requestMore() }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    private func requestMore() {
        lock.withLock { subscription }?.request(.max(batch))
    }

    /// The ticks received, once `total` have come.
    func allTicks() async -> [Date] {
        await withCheckedContinuation { continuation in
            lock.lock()
            if ticks.count == total {
                lock.unlock()
                continuation.resume(returning: ticks)
            } else {
                finish = continuation
                lock.unlock()
            }
        }
    }
}

enum TimerDemandExample {
    /// Runs a 10 ms timer on a run loop of its own thread, into a subscriber that takes six
    /// ticks, three at a time with a 50 ms pause between: returns the six dates.
    static func run() async -> [Date] {
        let (runLoop, stop) = await startRunLoop()
        defer { stop() }
        let subscriber = PacedSubscriber(total: 6, pause: .milliseconds(50))
        Timer.publish(every: 0.01, on: runLoop, in: .default).autoconnect().subscribe(subscriber)
        return await subscriber.allTicks()
    }

    /// Starts a thread that runs its run loop (on Linux no thread runs one unless told to),
    /// until the returned function is called.
    static func startRunLoop() async -> (RunLoop, @Sendable () -> Void) {
        let stopping = Stopping()
        let runLoop: RunLoop = await withCheckedContinuation { continuation in
            Thread {
                // A timer that never fires keeps the loop from returning at once while idle.
                RunLoop.current.add(
                    Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in },
                    forMode: .default
                )
                continuation.resume(returning: RunLoop.current)
                while !stopping.isSet {
                    _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
                }
            }.start()
        }
        return (runLoop, { stopping.set() })
    }
}

/// A flag one thread sets and another reads.
final class Stopping: Sendable {
    private let flag = Atomic(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}
