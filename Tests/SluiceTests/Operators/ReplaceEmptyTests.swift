import Testing
import Sluice
import SluiceTesting

// Each recorder is cancelled on leaving its test (`defer`): an operator's subscription keeps
// its subscriber until it ends, and the recorder keeps its subscription, so a test that left
// one open would leave the pair alive (the leak checker reports it).

@Suite("replaceEmpty(with:)")
struct ReplaceEmptyTests {
    @Test("an upstream that finishes without elements is replaced by the element, then .finished")
    func emptyReplaced() {
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        Empty<Int, Never>().replaceEmpty(with: 7).subscribe(recorder)
        #expect(recorder.values == [7])
        #expect(recorder.completion == .finished)
        #expect(recorder.subscription.map { "\($0)" } == "ReplaceEmpty")
        #expect(recorder.violations.isEmpty)
    }

    @Test("elements pass through and no replacement follows them")
    func elementsPassThrough() {
        let recorder = RecordingSubscriber<Int, Never>()
        defer { recorder.cancel() }
        [1, 2].publisher.replaceEmpty(with: 7).subscribe(recorder)
        #expect(recorder.values == [1, 2])
        #expect(recorder.completion == .finished)
    }

    @Test("a failure without elements passes through, not replaced")
    func failurePassesThrough() {
        let recorder = RecordingSubscriber<Int, TestError>()
        defer { recorder.cancel() }
        Fail<Int, TestError>(error: TestError(code: 3)).replaceEmpty(with: 7).subscribe(recorder)
        #expect(recorder.values.isEmpty)
        #expect(recorder.completion == .failure(TestError(code: 3)))
    }

    @Test("demand passes through one for one; with none outstanding at the end, the replacement waits for a request")
    func replacementWaitsForDemand() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        defer { recorder.cancel() }
        upstream.replaceEmpty(with: 7).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests.isEmpty)
        subscription.send(completion: .finished)
        #expect(recorder.values.isEmpty)
        #expect(recorder.completion == nil)
        recorder.request(.max(2))
        #expect(recorder.values == [7])
        #expect(recorder.completion == .finished)
        #expect(subscription.requests.isEmpty)
        #expect(recorder.violations.isEmpty)
    }

    @Test("requests reach the upstream unchanged, and a cancel reaches it once")
    func requestsAndCancel() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        defer { recorder.cancel() }
        upstream.replaceEmpty(with: 7).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.send(1) == .max(1))
        recorder.request(.max(4))
        #expect(subscription.requests == [.max(1), .max(4)])
        recorder.cancel()
        recorder.cancel()
        #expect(subscription.cancelCount == 1)
        subscription.send(completion: .finished)
        #expect(recorder.values == [1])
        #expect(recorder.completion == nil)
    }
}
