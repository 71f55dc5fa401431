import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("flatMapFirst (CombineExt)")
struct FlatMapFirstTests {
    @Test("values that arrive while an inner publisher runs are ignored; the next one after it finishes starts another")
    func ignoresWhileRunning() {
        let upstream = PassthroughSubject<Int, Oops>()
        let inner = ControllablePublisher<String, Oops>()
        defer { inner.detachAll() }
        let recorder = RecordingSubscriber<String, Oops>()
        let mapped = Locked([Int]())
        upstream.flatMapFirst { value in
            mapped.withLock { $0.append(value) }
            return inner
        }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        _ = inner.subscriptions[0].send("a")
        inner.subscriptions[0].send(completion: .finished)
        upstream.send(3)
        _ = inner.subscriptions[1].send("b")
        #expect(mapped.withLock { $0 } == [1, 3])
        #expect(inner.subscriptions.count == 2)
        #expect(recorder.values == ["a", "b"])
        #expect(recorder.completion == nil)
        recorder.cancel()
        #expect(inner.subscriptions[1].cancelCount == 1)
    }

    @Test("each subscription keeps its own running mark")
    func markPerSubscription() {
        let upstream = PassthroughSubject<Int, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let publisher = upstream.flatMapFirst { value in inner.map { value * 10 + $0 } }
        let first = RecordingSubscriber<Int, Never>()
        publisher.subscribe(first)
        upstream.send(1)                       // the first subscription's inner runs
        let second = RecordingSubscriber<Int, Never>()
        publisher.subscribe(second)
        upstream.send(2)                       // starts the second's; ignored by the first
        inner.send(5)
        #expect(first.values == [15])
        #expect(second.values == [25])
        first.cancel()
        second.cancel()
    }

    @Test("an inner failure fails the stream; an inner that subscribes late still blocks the next value")
    func failureAndLateInner() {
        let upstream = PassthroughSubject<Int, Oops>()
        let inner = ControllablePublisher<Int, Oops>()
        defer { inner.detachAll() }
        let scheduler = VirtualTimeScheduler()
        let recorder = RecordingSubscriber<Int, Oops>()
        upstream.flatMapFirst { _ in inner.subscribe(on: scheduler) }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)                       // the first inner has not subscribed yet
        scheduler.advance()
        #expect(inner.subscriptions.count == 1)
        inner.subscriptions[0].send(completion: .failure(Oops()))
        #expect(recorder.completion == .failure(Oops()))
    }

    @Test("a cancelled inner frees the mark: upstream finishing waits for the running inner")
    func finishWaitsForInner() {
        let upstream = PassthroughSubject<Int, Never>()
        let inner = ControllablePublisher<Int, Never>()
        defer { inner.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.flatMapFirst { _ in inner }.subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.completion == nil)
        _ = inner.subscriptions[0].send(7)
        inner.subscriptions[0].send(completion: .finished)
        #expect(recorder.values == [7])
        #expect(recorder.completion == .finished)
    }
}
