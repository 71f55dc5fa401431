import Dispatch
import Sluice
import SluiceTesting
import Testing

/// A timer publisher written the way Combine users write one: a custom `Subscription` class
/// driving a `DispatchSourceTimer`, emitting a tick count only while there is demand. The
/// tests check that Sluice's own parts work with it as they do in Combine: an operator's
/// demand and cancel reach it, a `for await` loop asks it for one tick per iteration and
/// cancels it on `break`, and `sink`'s cancellable stops it.
private struct TickPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    /// Called on each tick that found no demand (lets a test wait for one without sleeping).
    var onIdleTick: @Sendable () -> Void = {}
    /// Called when the subscription is cancelled.
    var onCancel: @Sendable () -> Void = {}

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let subscription = TickSubscription(downstream: subscriber, onIdleTick: onIdleTick, onCancel: onCancel)
        subscriber.receive(subscription: subscription)
        subscription.start()
    }
}

private final class TickSubscription<Downstream: Subscriber>: Subscription
where Downstream.Input == Int, Downstream.Failure == Never {
    private struct State {
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var ticks = 0
    }

    private let state: Locked<State>
    private let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "ticks"))
    private let onIdleTick: @Sendable () -> Void
    private let onCancel: @Sendable () -> Void

    init(downstream: Downstream, onIdleTick: @escaping @Sendable () -> Void, onCancel: @escaping @Sendable () -> Void) {
        state = Locked(State(downstream: downstream))
        self.onIdleTick = onIdleTick
        self.onCancel = onCancel
    }

    func start() {
        timer.schedule(deadline: .now(), repeating: .milliseconds(1))
        // Weak, so the subscription can go away even if nobody cancels; `cancel()` stops the timer.
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
    }

    private func tick() {
        let next = state.withLock { state -> (Downstream, Int)? in
            guard let downstream = state.downstream, state.demand > 0 else { return nil }
            state.demand -= 1
            state.ticks += 1
            return (downstream, state.ticks)
        }
        guard let (downstream, count) = next else {
            onIdleTick()
            return
        }
        let more = downstream.receive(count)
        state.withLock { $0.demand += more }
    }

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.demand += demand }
    }

    func cancel() {
        let downstream = state.withLock { state -> Downstream? in
            defer { state.downstream = nil }
            return state.downstream
        }
        guard downstream != nil else { return }
        timer.cancel()
        onCancel()
    }
}

/// Resumes a waiting test once, on the first idle tick after being armed.
private final class IdleGate: Sendable {
    private let waiter = Locked<CheckedContinuation<Void, Never>?>(nil)

    func arm() async {
        await withCheckedContinuation { continuation in
            waiter.withLock { $0 = continuation }
        }
    }

    func idleTick() {
        waiter.withLock { waiter -> CheckedContinuation<Void, Never>? in
            defer { waiter = nil }
            return waiter
        }?.resume()
    }
}

@Suite(.timeLimit(.minutes(12))) struct CustomTimerPublisherTests {
    @Test("map passes the demand to a hand-written subscription: it ticks only while there is some")
    func mapPassesDemandToTheTimer() async {
        let gate = IdleGate()
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        TickPublisher(onIdleTick: { gate.idleTick() }).map { $0 * 10 }.subscribe(recorder)
        recorder.request(.max(3))
        await recorder.waitForValues(count: 3)
        // A tick that found no demand has happened: nothing beyond the three was sent.
        await gate.arm()
        #expect(recorder.values == [10, 20, 30])
        recorder.request(.max(2))
        await recorder.waitForValues(count: 5)
        await gate.arm()
        #expect(recorder.values == [10, 20, 30, 40, 50])
        recorder.cancel()
        #expect(recorder.violations.isEmpty)
    }

    @Test("prefix(3) takes three ticks, finishes, and cancels the timer")
    func prefixCancelsTheTimer() async {
        let cancelled = Gate()
        let finished = Gate()
        let ticks = Locked<[Int]>([])
        let cancellable = TickPublisher(onCancel: { cancelled.open() }).prefix(3).sink(
            receiveCompletion: { _ in finished.open() },
            receiveValue: { tick in ticks.withLock { $0.append(tick) } })
        await finished.wait()
        await cancelled.wait()
        #expect(ticks.withLock { $0 } == [1, 2, 3])
        withExtendedLifetime(cancellable) {}
    }

    @Test("a for await loop gets one tick per iteration, and its break cancels the timer")
    func valuesLoopOverTheTimer() async {
        let cancelled = Gate()
        let gate = IdleGate()
        var seen: [Int] = []
        for await tick in TickPublisher(onIdleTick: { gate.idleTick() }, onCancel: { cancelled.open() }).values {
            seen.append(tick)
            // Between iterations the loop asks for nothing: the timer ticks idle.
            await gate.arm()
            if tick == 3 { break }
        }
        await cancelled.wait()
        #expect(seen == [1, 2, 3])
    }

    @Test("cancelling a sink stops the timer")
    func sinkCancelStopsTheTimer() async {
        let cancelled = Gate()
        let first = Gate()
        let cancellable = TickPublisher(onCancel: { cancelled.open() }).sink { _ in first.open() }
        await first.wait(for: "the first tick")
        cancellable.cancel()
        // The subscription cancels its timer, then calls onCancel, inside cancel().
        #expect(cancelled.isOpen, "the sink's cancel did not reach the timer's subscription, which goes on ticking")
    }
}
