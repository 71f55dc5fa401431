import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("ignoreFailure and flatMapLatest (CombineExt)")
struct ErrorsAndFlatteningTests {
    @Test("CombineExt ignoreFailure: a failure becomes a finish, or (completeImmediately: false) nothing")
    func ignoreFailure() {
        let subject = PassthroughSubject<Int, Oops>()
        let finishing = RecordingSubscriber<Int, Never>()
        let open = RecordingSubscriber<Int, Never>()
        let retyped = RecordingSubscriber<Int, DecodingFailure>()
        subject.ignoreFailure().subscribe(finishing)
        subject.ignoreFailure(completeImmediately: false).subscribe(open)
        subject.ignoreFailure(setFailureType: DecodingFailure.self).subscribe(retyped)
        subject.send(1)
        subject.send(completion: .failure(Oops()))
        #expect(finishing.values == [1])
        #expect(finishing.completion == .finished)
        #expect(open.values == [1])
        #expect(open.completion == nil)
        #expect(retyped.completion == .finished)
        open.cancel()
    }

    @Test("CombineExt flatMapLatest: only the latest inner publisher's values; a new value cancels the previous inner")
    func flatMapLatest() {
        let upstream = PassthroughSubject<Int, Never>()
        let inners = [ControllablePublisher<String, Never>(), ControllablePublisher<String, Never>()]
        defer { inners.forEach { $0.detachAll() } }
        let recorder = RecordingSubscriber<String, Never>()
        upstream.flatMapLatest { inners[$0] }.subscribe(recorder)
        upstream.send(0)
        _ = inners[0].subscriptions[0].send("a")
        upstream.send(1)
        _ = inners[0].subscriptions[0].send("stale")
        _ = inners[1].subscriptions[0].send("b")
        #expect(recorder.values == ["a", "b"])
        #expect(inners[0].subscriptions[0].cancelCount == 1)
        recorder.cancel()
    }
}

private struct DecodingFailure: Error, Equatable {}
