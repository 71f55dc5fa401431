import Testing
import Sluice
import SluiceTesting

@Suite("A subject used as a subscriber: a PassthroughSubject asks its upstreams for nothing until one of its subscribers asks, a CurrentValueSubject for everything at once")
struct SubjectUpstreamDemandTests {
    @Test("PassthroughSubject: no subscriber, or one without demand: nothing requested; the first demand: .unlimited, once, to every upstream; a later upstream gets it at once")
    func passthroughUpstreamDemandFollowsDownstream() {
        let subject = PassthroughSubject<Int, Never>()
        let first = ControllablePublisher<Int, Never>()
        let firstLink = first.subscribe(subject)
        #expect(first.subscriptions[0].requests.isEmpty)

        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(recorder)
        #expect(first.subscriptions[0].requests.isEmpty)

        recorder.request(.max(1))
        recorder.request(.max(1))
        #expect(first.subscriptions[0].requests == [.unlimited])

        let second = ControllablePublisher<Int, Never>()
        let secondLink = second.subscribe(subject)
        #expect(second.subscriptions[0].requests == [.unlimited])
        recorder.cancel()
        firstLink.cancel()
        secondLink.cancel()
    }

    @Test("CurrentValueSubject: each upstream is asked for .unlimited as soon as it subscribes the subject, listened to or not, and once")
    func currentValueAsksEveryUpstreamAtOnce() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let first = ControllablePublisher<Int, Never>()
        let firstLink = first.subscribe(subject)
        #expect(first.subscriptions[0].requests == [.unlimited])
        #expect(first.subscriptions[0].send(1) == .none)
        #expect(subject.value == 1, "kept as the current value with nobody listening")

        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(recorder)
        recorder.request(.max(1))
        #expect(first.subscriptions[0].requests == [.unlimited])
        #expect(recorder.values == [1])
        recorder.cancel()
        firstLink.cancel()
    }

    @Test("a CurrentValueSubject relaying another delivers the initial value once")
    func currentValueRelayDeliversItsValueOnce() {
        let source = CurrentValueSubject<Int, Never>(7)
        let relay = CurrentValueSubject<Int, Never>(0)
        let link = source.subscribe(relay)
        var seen: [Int] = []
        let sink = relay.sink { seen.append($0) }
        source.send(8)
        #expect(seen == [7, 8])
        sink.cancel()
        link.cancel()
    }

    @Test("a cold upstream subscribed to a subject nobody listens to does not run")
    func coldUpstreamWaits() {
        let subject = PassthroughSubject<Int, Never>()
        let link = [1, 2, 3].publisher.subscribe(subject)
        var seen: [Int] = []
        let sink = subject.sink { seen.append($0) }
        #expect(seen == [1, 2, 3])   // delivered once the sink asked, not lost before it
        sink.cancel()
        link.cancel()
    }

    @Test("a completion that comes before the upstream's subscription is ignored, as Combine's subject subscriber does; the stream then runs")
    func completionBeforeSubscriptionIgnored() throws {
        let upstream = LatePublisher<Int, Never>()
        defer { upstream.inner.detachAll() }
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        let link = upstream.subscribe(subject)
        try #require(upstream.waitingSubscribers.first).erased.receive(completion: .finished)
        #expect(recorder.completion == nil)
        upstream.release()
        _ = upstream.inner.subscriptions[0].send(1)
        upstream.inner.subscriptions[0].send(completion: .finished)
        #expect(recorder.values == [1] && recorder.completion == .finished)
        link.cancel()
    }
}
