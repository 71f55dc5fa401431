import Sluice
import SluiceTesting
import Testing
import Dispatch

private func firstSubscription<O, F>(of publisher: ControllablePublisher<O, F>) async throws -> ControllableSubscription<O, F> {
    try #require(await publisher.firstSubscription(), "nobody subscribed before the test was cancelled")
}

private actor Collector {
    var values: [Int] = []
    var cancellable: AnyCancellable?

    func bind(_ publisher: UncheckedBox<ControllablePublisher<Int, Never>>) {
        cancellable = publisher.value.sink(isolation: self) { value in
            self.assertIsolated("value delivered off the actor")
            self.values.append(value)
        }
    }

    /// Ends the subscription (the collector and its sink hold each other until then).
    func cancel() { cancellable?.cancel() }
}

@Suite(.timeLimit(.minutes(12))) struct IsolatedSinkTests {
    @MainActor @Test func valuesAreDeliveredOnTheMainActorOneRequestAtATime() async {
        let publisher = ControllablePublisher<Int, Never>()
        var received: [Int] = []
        let cancellable = publisher.sink(isolation: MainActor.shared) { value in
            MainActor.assertIsolated("value delivered off the main actor")
            received.append(value)
        }
        let subscription = publisher.subscriptions[0]
        let boxed = UncheckedBox(subscription)
        for n in 1...5 {
            await waitForCalls(boxed) { $0.count == n }
            // The next request comes only after the previous value was processed.
            #expect(subscription.requests == Array(repeating: .max(1), count: n))
            #expect(received == Array(1..<n))
            subscription.send(n)
        }
        await waitForCalls(boxed) { $0.count == 6 }
        #expect(received == [1, 2, 3, 4, 5])
        cancellable.cancel()
    }

    @MainActor @Test func theCompletionIsDeliveredOnTheActorAndEndsTheLoop() async {
        let publisher = ControllablePublisher<Int, TestError>()
        let done = Gate()
        var completion: Subscribers.Completion<TestError>?
        let cancellable = publisher.sink(isolation: MainActor.shared, receiveCompletion: {
            MainActor.assertIsolated()
            completion = $0
            done.open()
        }, receiveValue: { _ in })
        let subscription = publisher.subscriptions[0]
        let boxed = UncheckedBox(subscription)
        await waitForCalls(boxed) { !$0.isEmpty }
        subscription.send(completion: .failure(TestError(code: 9)))
        await done.wait()
        #expect(completion == .failure(TestError(code: 9)))
        cancellable.cancel()
    }

    @Test func valuesAreDeliveredOnACustomActor() async {
        let publisher = ControllablePublisher<Int, Never>()
        let collector = Collector()
        await collector.bind(UncheckedBox(publisher))
        let subscription = publisher.subscriptions[0]
        await subscription.waitForCalls { $0.count == 1 }
        subscription.send(1)
        await subscription.waitForCalls { $0.count == 2 }
        subscription.send(2)
        await subscription.waitForCalls { $0.count == 3 }
        #expect(await collector.values == [1, 2])
        await collector.cancel()
    }

    @MainActor @Test func cancellingCancelsUpstreamAndDeliversNothingMore() async {
        let publisher = ControllablePublisher<Int, Never>()
        defer { publisher.detachAll() }
        var received: [Int] = []
        let released = Gate()
        let cancellable: AnyCancellable
        do {
            let probe = DeinitProbe(released)
            cancellable = publisher.sink(isolation: MainActor.shared) { value in
                _ = probe
                received.append(value)
            }
        }
        let subscription = publisher.subscriptions[0]
        let boxed = UncheckedBox(subscription)
        await waitForCalls(boxed) { !$0.isEmpty }
        cancellable.cancel()
        cancellable.cancel()
        subscription.send(1)
        await released.wait()  // the closure is gone: nothing can reach it any more
        #expect(received.isEmpty)
        #expect(subscription.history == [.request(.max(1)), .cancel])
    }

    @MainActor @Test func theClosuresAreReleasedAfterCompletion() async {
        let publisher = ControllablePublisher<Int, Never>()
        let released = Gate()
        var cancellable: AnyCancellable?
        do {
            let probe = DeinitProbe(released)
            cancellable = publisher.sink(isolation: MainActor.shared) { _ in _ = probe }
        }
        let subscription = publisher.subscriptions[0]
        let boxed = UncheckedBox(subscription)
        await waitForCalls(boxed) { !$0.isEmpty }
        subscription.send(completion: .finished)
        #expect(await released.wait(for: "the sink to release its closures after the completion"))
        _ = cancellable
    }

    @MainActor @Test("sink(isolation:): cancel releases both closures, even with no value or completion ever sent",
                     .timeLimit(.minutes(12)))
    func cancelReleasesTheClosures() async {
        let publisher = ControllablePublisher<Int, Never>()
        let released = Gate()
        weak var weakProbe: DeinitProbe?
        let cancellable: AnyCancellable
        do {
            let probe = DeinitProbe(released)
            weakProbe = probe
            cancellable = publisher.sink(isolation: MainActor.shared,
                                         receiveCompletion: { _ in _ = probe },
                                         receiveValue: { _ in _ = probe })
        }
        let subscription = publisher.subscriptions[0]
        await waitForCalls(UncheckedBox(subscription)) { !$0.isEmpty }
        #expect(weakProbe != nil, "released before the cancel")
        cancellable.cancel()
        await released.wait()
        #expect(weakProbe == nil)
        #expect(subscription.history == [.request(.max(1)), .cancel])
    }

    @MainActor @Test("sink(isolation:): dropping the returned AnyCancellable cancels upstream and releases the closures",
                     .timeLimit(.minutes(12)))
    func droppingTheCancellableCancelsUpstream() async {
        let publisher = ControllablePublisher<Int, Never>()
        let released = Gate()
        var received: [Int] = []
        do {
            let probe = DeinitProbe(released)
            _ = publisher.sink(isolation: MainActor.shared) { value in
                _ = probe
                received.append(value)
            }
        }
        let subscription = publisher.subscriptions[0]
        await waitForCalls(UncheckedBox(subscription)) { $0.contains(.cancel) }
        await released.wait()
        subscription.send(1)   // after the cancel (and the closure is gone): reaches nothing
        #expect(received.isEmpty)
        #expect(subscription.cancelCount == 1)
    }

    @Test func cancelRacingDeliveryResumesTheLoopExactlyOnce() async throws {
        for _ in 0..<StressBudget.scaled(10_000) {
            let publisher = ControllablePublisher<Int, Never>()
            let cancellable = publisher.sink(isolation: nil) { _ in }
            let subscription = try await firstSubscription(of: publisher)
            await subscription.waitForCalls { !$0.isEmpty }
            // Cancelled (at the time limit), the wait returns before the request: a value sent now would be
            // beyond the demand, and the sink's loop would trap (rule 2), ending the whole test run.
            try Task.checkCancellation()
            let shared = UncheckedBox((subscription, cancellable))
            runConcurrently(threads: 2) { index in
                if index == 0 { shared.value.0.send(1) } else { shared.value.1.cancel() }
            }
            await subscription.waitForCalls { $0.contains(.cancel) }
            #expect(subscription.cancelCount == 1)
        }
    }

    @Test func plainSinkStillResolvesToTheUnlimitedSink() {
        let publisher = ControllablePublisher<Int, Never>()
        let cancellable = publisher.sink { _ in }
        #expect(publisher.subscriptions[0].requests == [.unlimited])
        cancellable.cancel()
    }

    /// A value resumes the waiting loop; a cancel on the main actor runs before the loop does.
    @MainActor @Test("sink(isolation:): a cancel on the actor after a value woke the loop delivers nothing more")
    func cancelOnTheActorAfterAValueWokeTheLoopDeliversNothingMore() async {
        let publisher = ControllablePublisher<Int, Never>()
        let primed = Gate()
        let released = Gate()
        var received: [Int] = []
        let cancellable: AnyCancellable
        do {
            let probe = DeinitProbe(released)
            cancellable = publisher.sink(isolation: MainActor.shared) { value in
                _ = probe
                received.append(value)
                primed.open()
            }
        }
        let subscription = publisher.subscriptions[0]   // sink subscribes at once
        let boxed = UncheckedBox(subscription)
        await waitForCalls(boxed) { $0.count == 1 }
        subscription.send(0)
        await primed.wait()   // resumed on the main actor once the loop waits again
        await waitForCalls(boxed) { $0.count == 2 }
        subscription.send(1)  // resumes the loop, which cannot run before this test suspends
        cancellable.cancel()
        await released.wait()
        #expect(released.isOpen, "the loop did not end")
        #expect(received == [0])
        #expect(subscription.history == [.request(.max(1)), .request(.max(1)), .cancel])
    }

    /// The same with the completion: it resumed the loop, then a cancel on the actor came first.
    @MainActor @Test("sink(isolation:): a cancel on the actor after the completion woke the loop delivers no completion")
    func cancelOnTheActorAfterTheCompletionWokeTheLoopDeliversNoCompletion() async {
        let publisher = ControllablePublisher<Int, Never>()
        let released = Gate()
        var completions = 0
        let cancellable: AnyCancellable
        do {
            let probe = DeinitProbe(released)
            cancellable = publisher.sink(isolation: MainActor.shared,
                                         receiveCompletion: { _ in _ = probe; completions += 1 },
                                         receiveValue: { _ in _ = probe })
        }
        let subscription = publisher.subscriptions[0]   // sink subscribes at once
        await waitForCalls(UncheckedBox(subscription)) { $0.count == 1 }   // the loop waits for a value
        subscription.send(completion: .finished)             // resumes it
        cancellable.cancel()                                 // before it runs
        await released.wait()
        #expect(released.isOpen, "the loop did not end")
        #expect(completions == 0)
    }
}
