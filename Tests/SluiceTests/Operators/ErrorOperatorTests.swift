import Testing
@_spi(Internals) import Sluice
import SluiceTesting

@Suite("replaceError(with:)")
struct ReplaceErrorTests {
    @Test("a failure is replaced by the element, sent after the upstream's, then .finished")
    func failureReplaced() {
        let upstream = ControllablePublisher<Int, TestError>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>()
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
        (1...3).publisher.setFailureType(to: TestError.self).replaceError(with: 99).subscribe(recorder)
        #expect(recorder.values == [1, 2, 3])
        #expect(recorder.completion == .finished)
    }

    @Test("a failure with no demand outstanding holds the replacement until the next request")
    func replacementWaitsForDemand() {
        let upstream = ControllablePublisher<Int, TestError>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
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
