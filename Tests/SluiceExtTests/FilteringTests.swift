import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("Filtering operators (CombineExt)")
struct FilteringTests {
    @Test("CombineExt removeAllDuplicates (Hashable): every value seen before is dropped, not only the previous one")
    func removeAllDuplicatesHashable() {
        let recorder = RecordingSubscriber<Int, Never>()
        [1, 2, 1, 3, 2, 4].publisher.removeAllDuplicates().subscribe(recorder)
        #expect(recorder.values == [1, 2, 3, 4])
        #expect(recorder.completion == .finished)
    }

    @Test("CombineExt removeAllDuplicates (Equatable, and by:), each subscription with its own memory of the values seen")
    func removeAllDuplicatesEquatableAndBy() {
        struct Point: Equatable { let x: Int }
        let points = [Point(x: 1), Point(x: 1), Point(x: 2)].publisher.removeAllDuplicates()
        let words = ["a", "B", "A", "b", "c"].publisher.removeAllDuplicates { $0.lowercased() == $1.lowercased() }
        for _ in 0..<2 {
            let pointRecorder = RecordingSubscriber<Point, Never>()
            points.subscribe(pointRecorder)
            #expect(pointRecorder.values == [Point(x: 1), Point(x: 2)])
            let wordRecorder = RecordingSubscriber<String, Never>()
            words.subscribe(wordRecorder)
            #expect(wordRecorder.values == ["a", "B", "c"])
        }
    }

    @Test("removeAllDuplicates: a dropped value is replaced by one more requested upstream")
    func removeAllDuplicatesDemand() {
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.removeAllDuplicates().subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.send(1) == .none)
        #expect(subscription.send(1) == .max(1))
        #expect(subscription.send(2) == .none)
        #expect(recorder.values == [1, 2])
        recorder.cancel()
    }

    @Test("CombineExt partition: matches and non-matches from one shared subscription, the predicate run once per value")
    func partition() {
        let subject = PassthroughSubject<Int, Never>()
        let calls = Counter()
        let (evens, odds) = subject.partition { calls.count += 1; return $0.isMultiple(of: 2) }
        let evenRecorder = RecordingSubscriber<Int, Never>()
        let oddRecorder = RecordingSubscriber<Int, Never>()
        evens.subscribe(evenRecorder)
        odds.subscribe(oddRecorder)
        for value in 1...4 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(evenRecorder.values == [2, 4])
        #expect(oddRecorder.values == [1, 3])
        #expect(evenRecorder.completion == .finished)
        #expect(oddRecorder.completion == .finished)
        #expect(calls.count == 4)
    }
}

private final class Counter { var count = 0 }
