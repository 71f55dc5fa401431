import Testing
import Sluice
import SluiceTesting

// Each recorder is cancelled on leaving its test (`defer`): an operator's subscription keeps
// its subscriber until it ends, and the recorder keeps its subscription, so a test that left
// one open would leave the pair alive (the leak checker reports it).

private struct HandlerError: Error, Equatable {}

@Suite("replaceError(with:)")
struct ReplaceErrorTests {
    @Test("a failure is replaced by the element, sent after the upstream's, then .finished")
    func failureReplaced() {
        let upstream = ControllablePublisher<Int, TestError>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        upstream.replaceError(with: 99).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.unlimited])
        subscription.send(1)
        subscription.send(2)
        subscription.send(completion: .failure(TestError()))
        #expect(recorder.values == [1, 2, 99])
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)

        var fromFail: [Int] = []
        _ = Fail<Int, TestError>(error: TestError()).replaceError(with: 5).sink { fromFail.append($0) }
        #expect(fromFail == [5])
    }

    @Test("a .finished passes through without the replacement")
    func finishedPassesThrough() {
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        (1...3).publisher.setFailureType(to: TestError.self).replaceError(with: 99).subscribe(recorder)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.completion == .finished)
    }

    @Test("a failure with no demand outstanding holds the replacement until the next request")
    func replacementWaitsForDemand() {
        let upstream = ControllablePublisher<Int, TestError>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        defer { recorder.cancel() }
        upstream.replaceError(with: 99).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.send(1) == .none)
        subscription.send(completion: .failure(TestError()))
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.values == [1, 99])
        #expect(recorder.completion == .finished)
        #expect(subscription.requests == [.max(1)])   // the held element does not reach upstream
        #expect(recorder.violations.isEmpty)
    }

    @Test("a cancel while the replacement is held drops it")
    func cancelDropsHeldReplacement() {
        let upstream = ControllablePublisher<Int, TestError>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.replaceError(with: 99).subscribe(recorder)
        upstream.subscriptions[0].send(completion: .failure(TestError()))
        recorder.cancel()
        recorder.request(.max(1))
        #expect(recorder.values.isEmpty)
        #expect(recorder.completion == nil)
    }

    @Test("demand passes through to the upstream one for one, and the subscription reads as Combine's")
    func demandPassesThrough() {
        let upstream = ControllablePublisher<Int, TestError>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        defer { recorder.cancel() }
        upstream.replaceError(with: 0).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        recorder.request(.max(3))
        #expect(subscription.send(1) == .max(1))
        #expect(subscription.requests == [.max(2), .max(3)])
        #expect(recorder.subscription.map { "\($0)" } == "ReplaceError")
        recorder.cancel()
        #expect(subscription.cancelCount == 1)
    }
}

@Suite("catch and tryCatch")
struct CatchTests {
    @Test("catch's subscription and its upstream subscriber mirror the downstream and its outstanding demand, as Combine's; retry's show nothing")
    func catchMirrorsDemand() throws {
        let upstream = ControllablePublisher<Int, HandlerError>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, HandlerError>(initialDemand: .max(3))
        upstream.catch { _ in Empty<Int, HandlerError>() }.subscribe(recorder)
        let given = try #require(recorder.subscription)
        let mirror = try #require(given as? any CustomReflectable).customMirror
        #expect(mirror.children.map(\.label) == ["downstream", "demand"])
        #expect(Array(mirror.children).last?.value as? Subscribers.Demand == .max(3))
        let downstream = String(describing: mirror.children.first.map(\.value) ?? "none")
        #expect(downstream.contains("RecordingSubscriber"))
        recorder.cancel()
        let retried = RecordingSubscriber<Int, HandlerError>(initialDemand: .max(3))
        upstream.retry(1).subscribe(retried)
        let retry = try #require(retried.subscription)
        let retryMirror = try #require(retry as? any CustomReflectable).customMirror
        #expect(retryMirror.children.isEmpty)
        retried.cancel()
    }

    @Test("after a failure the handler's publisher takes over, asked at once for the demand still outstanding")
    func switchCarriesDemand() {
        let first = ControllablePublisher<Int, TestError>()
        let second = ControllablePublisher<Int, HandlerError>()
        defer { first.detachAll(); second.detachAll() }
        let recorder = RecordingSubscriber<Int, HandlerError>(initialDemand: .max(3))
        defer { recorder.cancel() }
        var caught: [TestError] = []
        first.catch { error -> ControllablePublisher<Int, HandlerError> in
            caught.append(error)
            return second
        }.subscribe(recorder)
        #expect(first.subscriptions[0].requests == [.max(3)])
        first.subscriptions[0].send(1)
        #expect(second.subscriptions.isEmpty)
        first.subscriptions[0].send(completion: .failure(TestError(code: 7)))
        #expect(caught == [TestError(code: 7)])
        let replacement = second.subscriptions[0]
        #expect(replacement.requests == [.max(2)])
        recorder.request(.max(4))
        #expect(replacement.requests == [.max(2), .max(4)])
        #expect(first.subscriptions[0].requests == [.max(3)])
        replacement.send(2)
        replacement.send(completion: .failure(HandlerError()))
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == .failure(HandlerError()))
        #expect(recorder.events.count == 4)   // one subscription, two values, one completion
        #expect(recorder.violations.isEmpty)
    }

    @Test("demand returned from receive(_:) is part of what carries over")
    func returnedDemandCarriesOver() {
        let first = ControllablePublisher<Int, TestError>()
        let second = ControllablePublisher<Int, Never>()
        defer { first.detachAll(); second.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(2))
        defer { recorder.cancel() }
        first.catch { _ in second }.subscribe(recorder)
        #expect(first.subscriptions[0].send(1) == .max(2))
        first.subscriptions[0].send(completion: .failure(TestError()))
        #expect(second.subscriptions[0].requests == [.max(2)])
    }

    @Test("with no demand outstanding at the switch, the new publisher is asked for nothing until the downstream asks")
    func noDemandNoRequest() {
        let first = ControllablePublisher<Int, TestError>()
        let second = ControllablePublisher<Int, Never>()
        defer { first.detachAll(); second.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        defer { recorder.cancel() }
        first.catch { _ in second }.subscribe(recorder)
        first.subscriptions[0].send(1)
        first.subscriptions[0].send(completion: .failure(TestError()))
        #expect(second.subscriptions[0].requests.isEmpty)
        recorder.request(.max(1))
        #expect(second.subscriptions[0].requests == [.max(1)])
    }

    @Test("a cancel before the failure reaches the upstream; its failure afterwards runs no handler")
    func cancelBeforeSwitch() {
        let first = ControllablePublisher<Int, TestError>()
        let second = ControllablePublisher<Int, Never>()
        defer { first.detachAll(); second.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        var handled = 0
        first.catch { _ -> ControllablePublisher<Int, Never> in
            handled += 1
            return second
        }.subscribe(recorder)
        recorder.cancel()
        #expect(first.subscriptions[0].cancelCount == 1)
        first.subscriptions[0].send(completion: .failure(TestError()))
        #expect(handled == 0)
        #expect(second.subscriptions.isEmpty)
        #expect(recorder.completion == nil)
    }

    @Test("a cancel after the switch reaches the new publisher, not the failed one")
    func cancelAfterSwitch() {
        let first = ControllablePublisher<Int, TestError>()
        let second = ControllablePublisher<Int, Never>()
        defer { first.detachAll(); second.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        first.catch { _ in second }.subscribe(recorder)
        first.subscriptions[0].send(completion: .failure(TestError()))
        recorder.cancel()
        recorder.cancel()
        #expect(second.subscriptions[0].cancelCount == 1)
        #expect(first.subscriptions[0].cancelCount == 0)
        second.subscriptions[0].send(5)
        #expect(recorder.values.isEmpty)
    }

    @Test("a cancel while the new publisher is still subscribing cancels its subscription when it arrives; requests meanwhile are kept for it")
    func gapBetweenUpstreams() {
        let first = ControllablePublisher<Int, TestError>()
        let late = LatePublisher<Int, Never>()
        defer { first.detachAll(); late.inner.detachAll() }
        for cancelling in [false, true] {
            let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
            defer { recorder.cancel() }
            first.catch { _ in late }.subscribe(recorder)
            first.subscriptions.last!.send(completion: .failure(TestError()))
            #expect(late.waitingCount == 1)
            recorder.request(.max(2))
            if cancelling { recorder.cancel() }
            late.release()
            let subscription = late.inner.subscriptions.last!
            if cancelling {
                #expect(subscription.history == [.cancel])
            } else {
                #expect(subscription.history == [.request(.max(3))])
            }
        }
    }

    @Test("an upstream that finishes runs no handler")
    func finishedNeedsNoHandler() {
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        var handled = false
        [1, 2].publisher.setFailureType(to: TestError.self).catch { _ -> Just<Int> in
            handled = true
            return Just(0)
        }.subscribe(recorder)
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == .finished)
        #expect(!handled)
    }

    @Test("over publishers that complete inside subscribe: Fail, then Just")
    func synchronousSwitch() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        defer { recorder.cancel() }
        Fail<Int, TestError>(error: TestError()).catch { _ in Just(5) }.subscribe(recorder)
        #expect(recorder.values == [5])
        #expect(recorder.completion == .finished)
        #expect(recorder.subscription.map { "\($0)" } == "Catch")
        #expect(recorder.violations.isEmpty)
    }

    @Test("tryCatch: a handler that throws fails the stream with its error")
    func tryCatchThrows() {
        let upstream = ControllablePublisher<Int, TestError>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, any Error>()
        defer { recorder.cancel() }
        upstream.tryCatch { _ -> Just<Int> in throw HandlerError() }.subscribe(recorder)
        upstream.subscriptions[0].send(1)
        upstream.subscriptions[0].send(completion: .failure(TestError()))
        #expect(recorder.values == [1])
        guard case .failure(let error)? = recorder.completion else {
            Issue.record("no failure")
            return
        }
        #expect(error is HandlerError)
        #expect(upstream.subscriptions[0].cancelCount == 0)
        #expect(recorder.subscription.map { "\($0)" } == "TryCatch")
    }

    @Test("tryCatch: a handler that returns switches like catch, with the new publisher's failure as any Error")
    func tryCatchSwitches() {
        let first = ControllablePublisher<Int, TestError>()
        let second = ControllablePublisher<Int, HandlerError>()
        defer { first.detachAll(); second.detachAll() }
        let recorder = RecordingSubscriber<Int, any Error>(initialDemand: .max(2))
        defer { recorder.cancel() }
        first.tryCatch { _ in second }.subscribe(recorder)
        first.subscriptions[0].send(completion: .failure(TestError()))
        #expect(second.subscriptions[0].requests == [.max(2)])
        second.subscriptions[0].send(3)
        second.subscriptions[0].send(completion: .failure(HandlerError()))
        #expect(recorder.values == [3])
        guard case .failure(let error)? = recorder.completion else {
            Issue.record("no failure")
            return
        }
        #expect(error as? HandlerError == HandlerError())
        recorder.cancel()
        #expect(second.subscriptions[0].cancelCount == 0)   // it completed: nothing to cancel
    }
}

@Suite("retry")
struct RetryTests {
    @Test("each failure subscribes again until the retries are used up; then the failure passes")
    func retriesExhausted() {
        let upstream = ControllablePublisher<Int, TestError>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, TestError>()
        defer { recorder.cancel() }
        upstream.retry(2).subscribe(recorder)
        for attempt in 0..<3 {
            #expect(upstream.subscriptions.count == attempt + 1)
            upstream.subscriptions[attempt].send(attempt)
            upstream.subscriptions[attempt].send(completion: .failure(TestError(code: attempt)))
        }
        #expect(upstream.subscriptions.count == 3)
        #expect(recorder.values == [0, 1, 2])
        #expect(recorder.completion == .failure(TestError(code: 2)))
        #expect(recorder.events.count == 5)   // one subscription, three values, one completion
        #expect(recorder.subscription.map { "\($0)" } == "Retry")
        #expect(recorder.violations.isEmpty)
    }

    @Test("each new subscription is asked for the demand still outstanding")
    func demandCarriesOver() {
        let upstream = ControllablePublisher<Int, TestError>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(5))
        defer { recorder.cancel() }
        upstream.retry(3).subscribe(recorder)
        upstream.subscriptions[0].send(1)
        upstream.subscriptions[0].send(2)
        upstream.subscriptions[0].send(completion: .failure(TestError()))
        #expect(upstream.subscriptions[1].requests == [.max(3)])
        recorder.request(.max(10))
        #expect(upstream.subscriptions[1].requests == [.max(3), .max(10)])
        #expect(upstream.subscriptions[0].requests == [.max(5)])
    }

    @Test("a cancel reaches the current attempt only; before any retry, the first")
    func cancelReachesCurrentAttempt() {
        let upstream = ControllablePublisher<Int, TestError>()
        defer { upstream.detachAll() }
        let early = RecordingSubscriber<Int, TestError>()
        defer { early.cancel() }
        upstream.retry(1).subscribe(early)
        early.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
        upstream.subscriptions[0].send(completion: .failure(TestError()))
        #expect(upstream.subscriptions.count == 1)   // no retry after the cancel

        let late = RecordingSubscriber<Int, TestError>()
        defer { late.cancel() }
        upstream.retry(1).subscribe(late)
        upstream.subscriptions[1].send(completion: .failure(TestError()))
        late.cancel()
        #expect(upstream.subscriptions[1].cancelCount == 0)
        #expect(upstream.subscriptions[2].cancelCount == 1)
    }

    @Test(".finished is passed on, with no retry; retry(0) passes the first failure on")
    func noRetryWhenNotNeeded() {
        let finished = RecordingSubscriber<Int, TestError>()
        defer { finished.cancel() }
        [1, 2].publisher.setFailureType(to: TestError.self).retry(3).subscribe(finished)
        #expect(finished.values == [1, 2])
        #expect(finished.completion == .finished)

        let upstream = ControllablePublisher<Int, TestError>()
        defer { upstream.detachAll() }
        let none = RecordingSubscriber<Int, TestError>()
        defer { none.cancel() }
        upstream.retry(0).subscribe(none)
        upstream.subscriptions[0].send(completion: .failure(TestError()))
        #expect(upstream.subscriptions.count == 1)
        #expect(none.completion == .failure(TestError()))
    }

    @Test("a negative count retries without limit, as in Combine")
    func negativeCountIsUnlimited() {
        let upstream = FailingOnRequest(failures: 5, failure: TestError(), then: 1)
        let recorder = RecordingSubscriber<Int, TestError>()
        defer { recorder.cancel() }
        upstream.retry(-1).subscribe(recorder)
        #expect(upstream.subscriptionCount == 6)
        #expect(recorder.values == [1])
        #expect(recorder.completion == .finished)
    }

    @Test("100,000 failures inside request(_:) with unlimited retries keep the stack flat")
    func failingInsideRequestDoesNotRecurse() {
        let upstream = FailingOnRequest(failures: 100_000, failure: TestError(), then: 42)
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(1))
        defer { recorder.cancel() }
        Publishers.Retry(upstream: upstream, retries: nil).subscribe(recorder)
        #expect(upstream.subscriptionCount == 100_001)
        #expect(recorder.values == [42])
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test("100,000 failures inside subscribe (Deferred { Fail }) with unlimited retries keep the stack flat")
    func failingInsideSubscribeDoesNotRecurse() {
        let attempts = Locked(0)
        let upstream = Deferred { () -> AnyPublisher<Int, TestError> in
            let attempt = attempts.withLock { $0 += 1; return $0 }
            if attempt <= 100_000 { return Fail(error: TestError()).eraseToAnyPublisher() }
            return Just(attempt).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        let recorder = RecordingSubscriber<Int, TestError>()
        defer { recorder.cancel() }
        upstream.retry(Int.max).subscribe(recorder)
        #expect(recorder.values == [100_001])
        #expect(recorder.completion == .finished)
    }
}

// MARK: An upstream that breaks the contract: Combine's traps, kept

/// The standard error of an exit test, for matching a trap's message.
private func standardError(_ result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

extension CatchTests {
    @Test(
        "catch traps, as Combine's does, on a value of the upstream's that the downstream has not asked for, naming rule 2",
        .exitTest
    )
    func unwantedValueTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ControllablePublisher<Int, TestError>()
            upstream.catch { _ in Just(-1) }.subscribe(RecordingSubscriber<Int, Never>(initialDemand: .none))
            _ = upstream.subscriptions[0].send(42)
        }
        #expect(standardError(result).contains("Sluice API violation: Catch received a value beyond the demand it requested (rule 2)"))
    }

    @Test("tryCatch traps, as Combine's does, on a value before the upstream's subscription, naming rule 1", .exitTest)
    func earlyValueTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let late = LatePublisher<Int, TestError>()
            late.tryCatch { _ in Just(-1) }.subscribe(RecordingSubscriber<Int, any Error>())
            _ = late.waitingSubscribers.first?.erased.receive(1)
        }
        #expect(standardError(result).contains("Sluice API violation: TryCatch received a signal before its subscription (rule 1)"))
    }

    @Test(
        "catch traps, as Combine's does, when the upstream fails again after its failure (here inside the handler), naming rule 4",
        .exitTest
    )
    func secondFailureTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ControllablePublisher<Int, TestError>()
            upstream.catch { _ -> Just<Int> in
                upstream.subscriptions[0].send(completion: .failure(TestError()))
                return Just(13)
            }.subscribe(RecordingSubscriber<Int, Never>())
            upstream.subscriptions[0].send(completion: .failure(TestError()))
        }
        #expect(standardError(result).contains("Sluice API violation: Catch received a signal after its completion (rule 4)"))
    }

    @Test("after the switch, the failed upstream's second .finished and the handler's publisher's value beyond demand are ignored, as in Combine")
    func notCheckedWhereCombineIsNot() {
        let first = ControllablePublisher<Int, TestError>()
        let second = ControllablePublisher<Int, Never>()
        defer { first.detachAll(); second.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        first.catch { _ in second }.subscribe(recorder)
        first.subscriptions[0].send(completion: .failure(TestError()))
        first.subscriptions[0].send(completion: .finished)
        #expect(second.subscriptions[0].send(1) == .none)
        #expect(recorder.events.count == 1 && recorder.violations.isEmpty)
    }
}

extension RetryTests {
    @Test(
        "retry traps, as Combine's does, on a value the downstream has not asked for (rule 2) and on one before the first subscription (rule 1)",
        .exitTest
    )
    func unwantedValuesTrap() async {
        let beyond = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ControllablePublisher<Int, TestError>()
            upstream.retry(2).subscribe(RecordingSubscriber<Int, TestError>(initialDemand: .none))
            _ = upstream.subscriptions[0].send(-1)
        }
        #expect(standardError(beyond).contains("Sluice API violation: Retry received a value beyond the demand it requested (rule 2)"))
        let early = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let late = LatePublisher<Int, TestError>()
            late.retry(3).subscribe(RecordingSubscriber<Int, TestError>())
            _ = late.waitingSubscribers.first?.erased.receive(31)
        }
        #expect(standardError(early).contains("Sluice API violation: Retry received a signal before its subscription (rule 1)"))
    }
}

extension ReplaceErrorTests {
    @Test(
        "replaceError traps, as Combine's does, on a value the downstream has not asked for, naming rule 2",
        .exitTest
    )
    func unwantedValueTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = ControllablePublisher<Int, TestError>()
            upstream.replaceError(with: 0).subscribe(RecordingSubscriber<Int, Never>(initialDemand: .none))
            _ = upstream.subscriptions[0].send(1)
        }
        #expect(standardError(result).contains("Sluice API violation: ReplaceError received a value beyond the demand it requested (rule 2)"))
    }

    @Test("replaceError ignores a value before its upstream's subscription, as Combine's does")
    func earlyValueIgnored() throws {
        let late = LatePublisher<Int, TestError>()
        defer { late.inner.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        late.replaceError(with: 0).subscribe(recorder)
        #expect(try #require(late.waitingSubscribers.first).erased.receive(1) == .none)
        #expect(recorder.events.isEmpty)
        late.release()
        #expect(late.inner.subscriptions[0].send(2) == .none && recorder.values == [2] && recorder.violations.isEmpty)
    }

    @Test("replaceError ignores a cancel before its upstream's subscription, as Combine's does: the subscription that comes later is taken")
    func earlyCancelIgnored() throws {
        let late = LatePublisher<Int, TestError>()
        defer { late.inner.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        defer { recorder.cancel() }
        late.replaceError(with: 0).subscribe(recorder)
        let subscription = try #require(late.waitingSubscribers.first?.raw as? any Subscription)
        subscription.cancel()
        late.release()
        #expect(late.inner.subscriptions[0].cancelCount == 0)
        _ = late.inner.subscriptions[0].send(1)
        #expect(recorder.values == [1])
    }
}

extension RetryTests {
    @Test("retry's subscriber is the downstream's subscription too, as Combine's: a request made on it before the upstream's subscription goes to that subscription, a cancel on it cancels")
    func subscriberIsTheSubscription() throws {
        let late = LatePublisher<Int, TestError>()
        defer { late.inner.detachAll() }
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .none)
        defer { recorder.cancel() }
        late.retry(1).subscribe(recorder)
        let subscriber = try #require(late.waitingSubscribers.first?.raw as? any Subscription)
        subscriber.request(.max(3))
        late.release()
        #expect(recorder.events.count == 1)
        #expect(late.inner.subscriptions[0].requests == [.max(3)])
        subscriber.cancel()
        #expect(late.inner.subscriptions[0].cancelCount == 1 && recorder.violations.isEmpty)
    }
}

extension RetryTests {
    @Test("retry requests the demand a value brings from the attempt instead of returning it, and a later attempt's value before its subscription is delivered, as Combine's")
    func returnedDemandRequested() {
        let upstream = ControllablePublisher<Int, TestError>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(3), demandPerValue: .max(2))
        defer { recorder.cancel() }
        upstream.retry(1).subscribe(recorder)
        #expect(upstream.subscriptions[0].send(5) == .none)
        #expect(upstream.subscriptions[0].requests == [.max(3), .max(2)])
        let late = LatePublisher<Int, TestError>()
        defer { late.inner.detachAll() }
        let second = RecordingSubscriber<Int, TestError>(initialDemand: .max(3), demandPerValue: .max(2))
        defer { second.cancel() }
        let attempts = Locked(0)
        Deferred { () -> AnyPublisher<Int, TestError> in
            attempts.withLock { $0 += 1 }
            return late.eraseToAnyPublisher()
        }.retry(1).subscribe(second)
        late.release()
        late.inner.subscriptions[0].send(completion: .failure(TestError()))
        #expect(attempts.withLock { $0 } == 2 && late.waitingCount == 1)
        #expect(late.waitingSubscribers[0].erased.receive(1) == .none, "before the second attempt's subscription")
        late.release()
        #expect(second.values == [1])
        #expect(late.inner.subscriptions[1].requests == [.max(4)], "3 - 1 + 2, asked at its subscription")
        #expect(recorder.violations.isEmpty && second.violations.isEmpty)
    }
}

extension CatchTests {
    @Test("the subscribers catch gives its upstream and the handler's publisher have the downstream subscription's combineIdentifier, as Combine's")
    func oneCombineIdentifier() throws {
        let first = LatePublisher<Int, TestError>()
        let second = LatePublisher<Int, Never>()
        defer { first.inner.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        first.catch { _ in second }.subscribe(recorder)
        let firstSide = try #require(first.waitingSubscribers.first?.raw as? any CustomCombineIdentifierConvertible)
        first.release()
        let subscription = try #require(recorder.subscription)
        #expect(firstSide.combineIdentifier == subscription.combineIdentifier)
        first.inner.subscriptions[0].send(completion: .failure(TestError()))
        let secondSide = try #require(second.waitingSubscribers.first?.raw as? any CustomCombineIdentifierConvertible)
        #expect(secondSide.combineIdentifier == subscription.combineIdentifier)
    }
}

extension RetryTests {
    @Test("retry takes an attempt's completion before its subscription as that attempt's, as Combine's: a failure retries, a finish passes on, and the attempt's late subscription is cancelled")
    func completionBeforeSubscription() {
        let late = LatePublisher<Int, TestError>()
        defer { late.inner.detachAll() }
        let recorder = RecordingSubscriber<Int, TestError>()
        let attempts = Locked(0)
        Deferred { () -> AnyPublisher<Int, TestError> in
            attempts.withLock { $0 += 1 }
            return late.eraseToAnyPublisher()
        }.retry(1).subscribe(recorder)
        late.waitingSubscribers[0].erased.receive(completion: .failure(TestError()))
        #expect(attempts.withLock { $0 } == 2, "the failure before the subscription was retried")
        late.waitingSubscribers[1].erased.receive(completion: .finished)
        #expect(recorder.events == [.completion(.finished)], "no subscription yet: Combine's retry passes the finish on all the same")
        late.release()
        #expect(late.inner.subscriptions.allSatisfy { $0.cancelCount == 1 && $0.requests.isEmpty })
        #expect(recorder.events == [.completion(.finished)])
    }
}
