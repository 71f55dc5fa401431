import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("materialize / dematerialize (CombineExt)")
struct MaterializeTests {
    @Test("CombineExt materialize: values as .value, the finish as .finished, then a plain finish")
    func materializesAFinish() {
        let recorder = RecordingSubscriber<Event<Int, Oops>, Never>()
        [1, 2].publisher.setFailureType(to: Oops.self).materialize().subscribe(recorder)
        #expect(recorder.values == [.value(1), .value(2), .finished])
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test("CombineExt materialize: a failure as .failure, then a plain finish (the publisher never fails)")
    func materializesAFailure() {
        let subject = PassthroughSubject<Int, Oops>()
        let recorder = RecordingSubscriber<Event<Int, Oops>, Never>()
        subject.materialize().subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(Oops()))
        #expect(recorder.values == [.value(1), .failure(Oops())])
        #expect(recorder.completion == .finished)
    }

    @Test("materialize's ending event waits for demand: with none left when the upstream ends, it goes out (with the finish) on the next request")
    func endingEventWaitsForDemand() {
        let recorder = RecordingSubscriber<Event<Int, Never>, Never>(initialDemand: .max(2))
        [1, 2].publisher.materialize().subscribe(recorder)
        #expect(recorder.values == [.value(1), .value(2)])
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.values == [.value(1), .value(2), .finished])
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test("materialize passes the downstream's demand upstream one for one, counting demand returned from receive")
    func materializeDemandPassesThrough() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Event<Int, Never>, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        upstream.materialize().subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.max(1)])
        #expect(subscription.send(1) == .max(1))
        subscription.send(completion: .finished)
        #expect(recorder.values == [.value(1), .finished])  // the demand returned covered the event
        #expect(recorder.violations.isEmpty)
    }

    @Test("materialize: cancel while the ending event waits for demand delivers nothing more and cancels the upstream")
    func cancelWhileHolding() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Event<Int, Never>, Never>(initialDemand: .none)
        upstream.materialize().subscribe(recorder)
        upstream.subscriptions[0].send(completion: .finished)
        recorder.cancel()
        recorder.request(.max(1))
        #expect(recorder.values.isEmpty)
        #expect(recorder.completion == nil)
    }

    @Test("CombineExt dematerialize: .value delivers, .failure fails and cancels the upstream, nothing after it")
    func dematerializeFailure() {
        let upstream = ControllablePublisher<Event<Int, Oops>, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Oops>()
        upstream.dematerialize().subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        _ = subscription.send(.value(1))
        _ = subscription.send(.failure(Oops()))
        _ = subscription.send(.value(2))
        #expect(recorder.values == [1])
        #expect(recorder.completion == .failure(Oops()))
        #expect(subscription.cancelCount == 1)
        #expect(recorder.violations.isEmpty)
    }

    @Test("CombineExt dematerialize: .finished finishes and cancels the upstream; the upstream finishing finishes too")
    func dematerializeFinish() {
        let upstream = ControllablePublisher<Event<Int, Oops>, Never>()
        defer { upstream.detachAll() }
        let byEvent = RecordingSubscriber<Int, Oops>()
        let byUpstream = RecordingSubscriber<Int, Oops>()
        upstream.dematerialize().subscribe(byEvent)
        upstream.dematerialize().subscribe(byUpstream)
        _ = upstream.subscriptions[0].send(.finished)
        upstream.subscriptions[1].send(completion: .finished)
        #expect(byEvent.completion == .finished)
        #expect(upstream.subscriptions[0].cancelCount == 1)
        #expect(byUpstream.completion == .finished)
    }

    @Test("dematerialize passes the downstream's limited demand upstream as it is")
    func dematerializeDemand() {
        let upstream = ControllablePublisher<Event<Int, Oops>, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .max(3))
        upstream.dematerialize().subscribe(recorder)
        #expect(upstream.subscriptions[0].requests == [.max(3)])
        recorder.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
    }

    @Test("CombineExt values() and failures() on a materialized publisher")
    func valuesAndFailures() {
        let events = [1, 2].publisher.setFailureType(to: Oops.self).append(Fail(error: Oops())).materialize()
        let values = RecordingSubscriber<Int, Never>()
        let failures = RecordingSubscriber<Oops, Never>()
        events.values().subscribe(values)
        events.failures().subscribe(failures)
        #expect(values.values == [1, 2])
        #expect(values.completion == .finished)
        #expect(failures.values == [Oops()])
        #expect(failures.completion == .finished)
    }

    @Test("Event describes itself and compares by case and payload")
    func eventValue() {
        #expect(Event<Int, Oops>.value(1).description == "value(1)")
        #expect(Event<Int, Oops>.finished.description == "finished")
        #expect(Event<Int, Oops>.value(1) != .value(2))
        #expect(Event<Int, Oops>.failure(Oops()).event == .failure(Oops()))
    }
}
