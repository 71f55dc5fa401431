// Stress of the async producers as publishers: AsyncSequence → publisher, Producer,
// AsyncFuture, and of awaiting a publisher's first and last value.
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

extension AsyncStressSuites {
    @Suite("Stress: async producers and awaiting", .timeLimit(.minutes(12)))
    struct ProducerStressTests {
        /// One operation = one `request(.max(1))`: 2 threads × 5,000 on an async sequence's
        /// publisher; each element is read by the iterating task only after its demand arrived.
        @Test("an async sequence's publisher under requests from two threads delivers every element once, in order, reading none ahead")
        func asyncSequencePublisherInOrder() async {
            await Self.checkReadsNothingAhead { AnyPublisher($0.publisher) }
        }

        /// The check of ``asyncSequencePublisherInOrder()`` for any publisher of an endless
        /// counting sequence (the mutant tests run it on one that reads ahead).
        ///
        /// The sequence never ends, so a publisher that read ahead of its demand finds an element
        /// to read; the count is taken once the iterator is gone (after the cancel), when
        /// nothing can read any more.
        static func checkReadsNothingAhead(_ publish: (CountingAsyncSequence) -> AnyPublisher<Int, Never>) async {
            // 10,000 here: requests of one mostly make the task hop once per element, slow in a
            // debug build; the family's 100,000 operations are in
            // `manySubscriptionsUnderRequestsAndCancels`, with demand in batches.
            let count = StressBudget.scaled(10_000)
            let iterators = LiveCounter()
            let sequence = CountingAsyncSequence(limit: nil, live: iterators)
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            publish(sequence).subscribe(recorder)
            runConcurrently(threads: 2) { _ in
                for _ in 0..<count / 2 { recorder.request(.max(1)) }
            }
            // The subscription and `count` values (counting events is O(1) per check, counting
            // values O(n): with 10,000 values that made this test quadratic, over a minute).
            await recorder.wait { $0.count >= 1 + count }
            recorder.cancel()
            #expect(await eventually { iterators.current == 0 }, "the iterator outlived the cancel")
            #expect(sequence.produced.value == count, "\(sequence.produced.value - count) elements read ahead of the demand")
            #expect(recorder.values == Array(0..<count), "lost, duplicated or reordered elements")
            #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
        }

        /// One operation = one `request(.max(1))`: 2 threads × 5,000 on a `Producer` whose body
        /// sends 0..<10,000 (each send suspends until demand is there).
        @Test("a Producer under requests from two threads delivers every value once, in order, then finishes")
        func producerInOrder() async {
            // 10,000 here: see above.
            let count = StressBudget.scaled(10_000)
            let publisher = Producer<Int, Never> { sender in
                for value in 0..<count { guard await sender.send(value) else { return } }
            }
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
            publisher.subscribe(recorder)
            runConcurrently(threads: 2) { _ in
                for _ in 0..<count / 2 { recorder.request(.max(1)) }
            }
            // The subscription, the values, the completion: counted in O(1) per check
            // (`waitForCompletion` scans the log at each event, quadratic over 10,000 values).
            await recorder.wait { $0.count >= 2 + count }
            #expect(recorder.completion == .finished)
            #expect(recorder.values == Array(0..<count), "lost, duplicated or reordered values")
            #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
        }

        /// One operation = one `subscribe`, `request` or `cancel`: 2,000 subscriptions each to an
        /// endless async sequence and to an endless `Producer`, asked for three elements by one
        /// thread and cancelled by another (12,000 operations; each family's 100,000 are counted
        /// in `manySubscriptionsUnderRequestsAndCancels`).
        @Test("endless async sources cancelled while requested stop, deliver an in-order prefix, and release their iterator or body")
        func endlessSourcesCancelledWhileRequested() async {
            let subscriptions = StressBudget.scaled(2_000, minimum: 50)
            // A source whose subscription was cancelled before its first demand never starts, so
            // the test counts the iterators and bodies made and waits until all of those are gone.
            let iterators = LiveCounter()
            let bodies = LiveCounter()
            let sequence = CountingAsyncSequence(limit: nil, live: iterators)
            let producer = Producer<Int, Never> { sender in
                let token = LiveElement(0, counter: bodies)
                var value = 0
                while await sender.send(value) { value += 1 }
                _ = token
            }
            var weakRecorders: [WeakRecorder<Int>] = []
            let subscribers = LiveCounter()
            do {
                let recorders = (0..<2 * subscriptions).map { _ in RecordingSubscriber<Int, Never>(initialDemand: .none) }
                for (index, recorder) in recorders.enumerated() {
                    let tracked = TrackedSubscriber(recorder, live: subscribers)
                    if index % 2 == 0 { sequence.publisher.subscribe(tracked) } else { producer.subscribe(tracked) }
                }
                runConcurrently(threads: 2) { thread in
                    if thread == 0 {
                        for recorder in recorders { recorder.request(.max(3)) }
                    } else {
                        for recorder in recorders { recorder.cancel() }
                    }
                }
                // Values may still be on their way from the tasks: check once every publisher
                // let go of its subscriber.
                #expect(await eventually { subscribers.current == 0 }, "\(subscribers.current) subscribers still held after cancel")
                for recorder in recorders {
                    let values = recorder.values
                    #expect(values == Array(0..<values.count) && values.count <= 3, "not an in-order prefix: \(values)")
                    #expect(recorder.completion == nil)
                    #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
                    weakRecorders.append(WeakRecorder(recorder: recorder))
                }
            }
            let released = await eventually { iterators.current == 0 && bodies.current == 0 && weakRecorders.allSatisfy { $0.recorder == nil } }
            #expect(released, "after cancel: \(iterators.current) iterators, \(bodies.current) bodies, \(weakRecorders.count { $0.recorder != nil }) subscribers still alive")
        }
        /// One operation = one `subscribe`, `request`, `cancel` or delivered value, over 1,200
        /// subscriptions to a 100-element async sequence's publisher or `Producer`: each is asked
        /// for 11 elements 5 times by each of two threads (10 requests, 110 demanded: 100 values
        /// and a look at the end), and every fourth one is cancelled by a third thread while
        /// they run: at least 100,000 operations per family (counted, and checked).
        ///
        /// Demand comes in batches, so the iterating task mostly spends demand it holds (one task
        /// hop per batch, not per element): the 100,000 fit in seconds in a debug build.
        @Test("many subscriptions to an async sequence's publisher or a Producer, requested from two threads and some cancelled, each deliver an in-order prefix (all of it unless cancelled), then release their subscriber",
            arguments: ["AsyncSequence.publisher", "Producer"])
        func manySubscriptionsUnderRequestsAndCancels(family: String) async {
            let subscriptions = StressBudget.scaled(1_200, minimum: 20)
            let elements = 100
            let isCancelled: @Sendable (Int) -> Bool = { $0 % 4 == 3 }
            let sequence = CountingAsyncSequence(limit: elements)
            let producer = Producer<Int, Never> { sender in
                for value in 0..<elements { guard await sender.send(value) else { return } }
            }
            var weakRecorders: [WeakRecorder<Int>] = []
            var operations = 0
            do {
                let recorders = (0..<subscriptions).map { _ in RecordingSubscriber<Int, Never>(initialDemand: .none) }
                for recorder in recorders {
                    if family == "Producer" { producer.subscribe(recorder) } else { sequence.publisher.subscribe(recorder) }
                }
                let seenAtCancel = Locked([Int](repeating: 0, count: subscriptions))
                runConcurrently(threads: 3) { thread in
                    if thread < 2 {
                        for _ in 0..<5 {
                            for recorder in thread == 0 ? recorders : recorders.reversed() { recorder.request(.max(11)) }
                        }
                    } else {
                        for (index, recorder) in recorders.enumerated() where isCancelled(index) {
                            recorder.cancel()
                            let seen = recorder.values.count
                            seenAtCancel.withLock { $0[index] = seen }
                        }
                    }
                }
                operations += subscriptions * (1 + 10) + (0..<subscriptions).count(where: isCancelled)
                for (index, recorder) in recorders.enumerated() where !isCancelled(index) {
                    #expect(await recorder.waitForCompletion() == .finished)
                }
                let seen = seenAtCancel.withLock { $0 }
                for (index, recorder) in recorders.enumerated() {
                    let values = recorder.values
                    operations += values.count
                    #expect(values == Array(0..<values.count), "not an in-order prefix: \(values.prefix(8))…")
                    if isCancelled(index) {
                        // A value the task was delivering as the cancel came may still land.
                        #expect(values.count <= seen[index] + 1, "\(values.count - seen[index]) values after cancel returned")
                    } else {
                        #expect(values.count == elements, "lost elements: \(values.count) of \(elements)")
                    }
                    #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
                    weakRecorders.append(WeakRecorder(recorder: recorder))
                }
            }
            #expect(operations >= StressBudget.scaled(100_000), "only \(operations) operations")
            let released = await eventually { weakRecorders.allSatisfy { $0.recorder == nil } }
            #expect(released, "\(weakRecorders.count { $0.recorder != nil }) subscribers still held after completion or cancel")
        }

        /// One operation = one `subscribe`, `request` or `cancel`: 40,000 subscriptions to an
        /// `AsyncFuture`, each requested, every other one cancelled at once (100,000 operations).
        @Test("AsyncFuture subscriptions, half of them cancelled at once: the others get their value then finished, the cancelled at most the value")
        func asyncFutureSubscriptions() async {
            let count = StressBudget.scaled(100_000) * 2 / 5
            let recorders = (0..<count).map { _ in RecordingSubscriber<Int, Never>(initialDemand: .none) }
            let subscribers = LiveCounter()
            runConcurrently(threads: 2) { thread in
                for index in stride(from: thread, to: count, by: 2) {
                    AsyncFuture<Int, Never> { index }.subscribe(TrackedSubscriber(recorders[index], live: subscribers))
                    recorders[index].request(.max(1))
                    if index % 4 < 2 { recorders[index].cancel() }
                }
            }
            // Each future lets go of its subscriber once it delivered or saw the cancel: then
            // nothing more can come, also for the cancelled ones.
            #expect(await eventually { subscribers.current == 0 }, "\(subscribers.current) futures still hold their subscriber")
            for (index, recorder) in recorders.enumerated() {
                if index % 4 >= 2 {
                    #expect(recorder.completion == .finished)
                    #expect(recorder.values == [index])
                } else {
                    // A future already delivering when the cancel came sends its value and
                    // `.finished` as one emission; otherwise nothing comes.
                    #expect(recorder.values.isEmpty || recorder.values == [index], "\(recorder.values)")
                    #expect(recorder.completion == nil || (recorder.completion == .finished && recorder.values == [index]))
                }
                #expect(recorder.violations.isEmpty, "\(recorder.violations.prefix(3))")
            }
        }

        /// One operation = one element delivered to the awaiter (100,000 for `lastValue`), plus
        /// 25,000 `firstValue` awaits racing with a subject's sender, each a subscribe, a
        /// request, a value and a cancel (100,000 operations). The awaiters run 500 at a time:
        /// every send goes to each subscriber the subject has, so 25,000 at once would make the
        /// sender quadratic.
        @Test("lastValue over 100,000 elements is the last; 25,000 firstValue awaits racing with a sending subject all return a sent value and unsubscribe")
        func awaitingValues() async {
            let count = StressBudget.scaled(100_000)
            #expect(await (0..<count).publisher.lastValue() == count - 1)
            let subject = PassthroughSubject<Int, Never>()
            let stopped = Locked(false)
            let senderDone = StressGate()
            // A queue of its own: a spinning task or global-queue item would starve the awaiters.
            DispatchQueue(label: "sluice.stress.sender").async {
                var value = 0
                while !stopped.withLock({ $0 }) {
                    subject.send(value)
                    value += 1
                    sched_yield()  // an endless sender must not starve the tasks of parallel tests
                }
                senderDone.open()
            }
            let awaiters = StressBudget.scaled(100_000) / 4
            let results = await withTaskGroup(of: Int?.self, returning: [Int?].self) { group in
                var results: [Int?] = []
                for index in 0..<awaiters {
                    group.addTask { await subject.firstValue() }
                    if index >= 500, let result = await group.next() { results.append(result) }
                }
                for await result in group { results.append(result) }
                return results
            }
            stopped.withLock { $0 = true }
            await senderDone.wait()
            #expect(results.count == awaiters)
            #expect(results.allSatisfy { $0 != nil && $0! >= 0 }, "an awaiter returned nil without being cancelled")
            // Each awaiter cancelled its subscription after its value: the subject holds none.
            #expect(subject.attachedSubscriptions == 0, "the subject still holds \(subject.attachedSubscriptions) subscriptions")
        }
    }
}
