// Stress of `publisher.values` and its prefetch and buffering variants.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Testing
import Sluice
import SluiceTesting

/// The ways to turn a publisher into an async sequence, run through the same tests.
enum StressValuesMode: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case onDemand, prefetch16, bufferingUnbounded, bufferingOldest64, bufferingNewest64
    var testDescription: String { rawValue }

    func values<P: Publisher>(_ publisher: P) -> AsyncPublisher<P> {
        switch self {
        case .onDemand: publisher.values
        case .prefetch16: publisher.values(prefetch: 16)
        case .bufferingUnbounded: publisher.values(bufferingPolicy: .unbounded)
        case .bufferingOldest64: publisher.values(bufferingPolicy: .bufferingOldest(64))
        case .bufferingNewest64: publisher.values(bufferingPolicy: .bufferingNewest(64))
        }
    }

    /// Whether every element of a publisher that honours demand arrives (the bounded
    /// buffering variants request `.unlimited` and may drop).
    var isLossless: Bool { self == .onDemand || self == .prefetch16 || self == .bufferingUnbounded }
}

extension AsyncStressSuites {
    @Suite("Stress: values", .timeLimit(.minutes(12)))
    struct ValuesStressTests {
        /// One operation = one `next()`: 100,000 elements of a sequence publisher.
        @Test("iterating 100,000 elements of a sequence publisher yields each exactly once, in order",
            arguments: StressValuesMode.allCases.filter(\.isLossless))
        func sequenceInOrder(mode: StressValuesMode) async {
            let count = StressBudget.scaled(100_000)
            var expected = 0
            var inOrder = true
            for await value in mode.values((0..<count).publisher) {
                if value != expected { inOrder = false }
                expected += 1
            }
            #expect(inOrder, "an element was lost, duplicated or reordered (mode \(mode))")
            #expect(expected == count)
        }

        /// One operation = one `send` (2 threads × 50,000) or one `next()`.
        @Test("a loop over a subject under two concurrent senders gets no duplicate, per-sender order, every value it asked for, and ends at completion",
            arguments: StressValuesMode.allCases)
        func subjectUnderConcurrentSenders(mode: StressValuesMode) async {
            await Self.checkConcurrentSenders(mode: mode, subject: PassthroughSubject<Tagged, Never>())
        }

        /// The check of ``subjectUnderConcurrentSenders(mode:)`` over any subject (the mutant
        /// tests run it over one that loses a sender's values).
        ///
        /// The senders start once the loop has its first element (a marker, sent until it
        /// arrives), so the loop's demand is there before they send: the variant that requests
        /// `.unlimited` must then get every value of both senders, and every variant some.
        static func checkConcurrentSenders(mode: StressValuesMode, subject: some SendableTaggedSubject) async {
            let perSender = StressBudget.scaled(100_000) / 2
            let values = mode.values(subject)
            var iterator = values.makeAsyncIterator()  // subscribes now, before the sends
            let loopStarted = Locked(false)
            let sendersDone = StressGate()
            let patience = Patience.current
            DispatchQueue(label: "sluice.stress.sender").async {
                let deadline = ContinuousClock.now.advanced(by: patience)
                var marker = 0
                while !loopStarted.withLock({ $0 }) && ContinuousClock.now < deadline {
                    subject.send(Tagged(sender: -1, rank: marker))
                    marker += 1
                    sched_yield()
                }
                runConcurrently(threads: 2) { sender in
                    for rank in 0..<perSender { subject.send(Tagged(sender: sender, rank: rank)) }
                }
                subject.send(completion: .finished)
                sendersDone.open()
            }
            var received: [Tagged] = []
            while let value = await iterator.next() {
                if value.sender < 0 {
                    loopStarted.withLock { $0 = true }
                } else {
                    received.append(value)
                }
            }
            await sendersDone.wait()
            #expect(loopStarted.withLock { $0 }, "the loop never got its first element (mode \(mode))")
            let (breach, counts) = perSenderOrder(received, senders: 2)
            #expect(breach == nil, "per-sender order broken: \(breach ?? "") (mode \(mode))")
            #expect(counts.allSatisfy { $0 <= perSender })
            if mode == .bufferingUnbounded {
                // Its demand is `.unlimited` from the first `next()` on: nothing may be lost.
                #expect(counts == [perSender, perSender], "values lost: \(counts) of \(perSender) per sender (mode \(mode))")
            } else {
                #expect(counts.reduce(0, +) > 0, "the loop got none of the senders' values (mode \(mode))")
            }
        }

        /// 500 loops per variant over a subject that a thread keeps sending to, each started in a
        /// task and cancelled by the test at once or (every other one) after its first element.
        /// Not one of the 100,000-operation counts: each loop costs a task and a wait for the
        /// sender (about 10 ms in a debug build on 2 busy cores), so this one is kept short.
        @Test("loops cancelled while a subject keeps sending all end, and release their subscription",
            arguments: [StressValuesMode.onDemand, .prefetch16, .bufferingNewest64])
        func cancelledLoopsEnd(mode: StressValuesMode) async {
            let loops = StressBudget.scaled(500, minimum: 50)
            let subject = PassthroughSubject<Int, Never>()
            // The loops subscribe through this, which keeps a weak reference to each subscriber.
            let tracking = SubscriberTracking(upstream: subject)
            // The sender runs on a queue of its own, neither in a task nor on a global queue: on
            // Linux both share the width-limited worker pool the loops need, and a spinning
            // sender per test case would starve them.
            let stopped = Locked(false)
            let senderDone = StressGate()
            DispatchQueue(label: "sluice.stress.sender").async {
                var value = 0
                while !stopped.withLock({ $0 }) {
                    subject.send(value)
                    sched_yield()  // an endless sender must not starve the tasks of parallel tests
                    value += 1
                }
                senderDone.open()
            }
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<loops {
                    let firstElement = StressGate()
                    let task = Task {
                        for await _ in mode.values(tracking) { firstElement.open() }
                    }
                    if index % 2 == 1 { await firstElement.wait() }
                    task.cancel()
                    group.addTask { await task.value }
                    if index % 64 == 63 { await group.next() }
                }
            }
            stopped.withLock { $0 = true }
            await senderDone.wait()
            // Every loop ended. Each one's subscriber must be gone (a weak reference to it is
            // nil: neither the subject nor the ended loop's task keeps it) and detached from the
            // subject (which holds no subscription any more).
            #expect(tracking.tracked.count == loops, "\(tracking.tracked.count) subscribers for \(loops) loops")
            let released = await eventually { tracking.tracked.alive == 0 }
            #expect(released, "\(tracking.tracked.alive) of \(loops) cancelled loops' subscribers still alive")
            #expect(subject.attachedSubscriptions == 0, "the subject still holds \(subject.attachedSubscriptions) subscriptions")
            // And a new subscriber is served as the only one.
            let recorder = RecordingSubscriber<Int, Never>()
            subject.subscribe(recorder)
            subject.send(-1)
            #expect(recorder.values == [-1])
            #expect(subject.attachedSubscriptions == 1)
            subject.send(completion: .finished)  // the subject and the recorder hold each other until then
        }
    }
}
