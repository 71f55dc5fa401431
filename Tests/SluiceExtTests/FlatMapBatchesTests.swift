import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("flatMapBatches(of:) (CombineExt)")
struct FlatMapBatchesTests {
    @Test("Publishers are subscribed `size` at a time; the next batch only once the current one finishes")
    func batchBoundaries() {
        let publishers = (0..<5).map { _ in ControllablePublisher<Int, Never>() }
        defer { publishers.forEach { $0.detachAll() } }
        let recorder = RecordingSubscriber<[Int], Never>()
        publishers.flatMapBatches(of: 2).subscribe(recorder)
        #expect(publishers.map { $0.subscriptions.count } == [1, 1, 0, 0, 0])
        publishers[1].subscriptions[0].send(2)
        publishers[0].subscriptions[0].send(1)
        publishers[0].subscriptions[0].send(completion: .finished)
        #expect(recorder.values == [[1, 2]])
        #expect(publishers.map { $0.subscriptions.count } == [1, 1, 1, 1, 0])
        publishers[2].subscriptions[0].send(3)
        publishers[3].subscriptions[0].send(4)
        publishers[3].subscriptions[0].send(completion: .finished)
        #expect(publishers.map { $0.subscriptions.count } == [1, 1, 1, 1, 1])
        publishers[4].subscriptions[0].send(5)
        #expect(recorder.completion == nil)
        publishers[4].subscriptions[0].send(completion: .finished)
        #expect(recorder.values == [[1, 2], [3, 4], [5]])
        #expect(recorder.completion == .finished)
    }

    @Test("Each array holds the n-th value of every publisher of the batch, in the collection's order")
    func zippedWithinBatch() {
        let twice = [1, 2].map { [$0, $0].publisher.eraseToAnyPublisher() }
        let once = [3, 4].map { Just($0).eraseToAnyPublisher() }
        let recorder = RecordingSubscriber<[Int], Never>()
        (twice + once).flatMapBatches(of: 2).subscribe(recorder)
        #expect(recorder.values == [[1, 2], [1, 2], [3, 4]])
        #expect(recorder.completion == .finished)
    }

    @Test("A failure in a batch fails the stream, cancels the rest of the batch, and later batches are never subscribed")
    func failureInBatch() {
        let publishers = (0..<4).map { _ in ControllablePublisher<Int, Oops>() }
        defer { publishers.forEach { $0.detachAll() } }
        let recorder = RecordingSubscriber<[Int], Oops>()
        publishers.flatMapBatches(of: 2).subscribe(recorder)
        publishers[1].subscriptions[0].send(completion: .failure(Oops()))
        #expect(recorder.completion == .failure(Oops()))
        #expect(recorder.values.isEmpty)
        #expect(publishers[0].subscriptions[0].cancelCount == 1)
        #expect(publishers[2].subscriptions.isEmpty)
        #expect(publishers[3].subscriptions.isEmpty)
    }

    @Test("The downstream's demand counts arrays: a recorder that asks for one gets one")
    func demandCountsArrays() {
        let recorder = RecordingSubscriber<[Int], Never>(initialDemand: .max(1))
        (1...6).map(Just.init).flatMapBatches(of: 2).subscribe(recorder)
        #expect(recorder.values == [[1, 2]])
        recorder.request(.max(1))
        #expect(recorder.values == [[1, 2], [3, 4]])
        #expect(recorder.completion == nil)
        recorder.request(.max(1))
        #expect(recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test("An empty collection finishes at once; a size beyond the count makes one batch")
    func edgeSizes() {
        let empty = RecordingSubscriber<[Int], Never>()
        EmptyCollection<AnyPublisher<Int, Never>>().flatMapBatches(of: 3).subscribe(empty)
        #expect(empty.values.isEmpty)
        #expect(empty.completion == .finished)
        let one = RecordingSubscriber<[Int], Never>()
        [Just(1), Just(2)].flatMapBatches(of: 5).subscribe(one)
        #expect(one.values == [[1, 2]])
        #expect(one.completion == .finished)
    }

    @Test("A cancel cancels the running batch, subscribes nothing more, and releases the downstream")
    func cancelReleases() {
        let publishers = (0..<4).map { _ in ControllablePublisher<Int, Never>() }
        defer { publishers.forEach { $0.detachAll() } }
        var weakRecorder: Weak<RecordingSubscriber<[Int], Never>>?
        do {
            let recorder = RecordingSubscriber<[Int], Never>()
            weakRecorder = Weak(recorder)
            publishers.flatMapBatches(of: 2).subscribe(recorder)
            recorder.cancel()
            publishers[0].subscriptions[0].send(completion: .finished)
        }
        publishers.forEach { $0.detachAll() }
        #expect(publishers[0].subscriptions[0].cancelCount == 1)
        #expect(publishers[1].subscriptions[0].cancelCount == 1)
        #expect(publishers[2].subscriptions.isEmpty)
        #expect(weakRecorder?.object == nil)
    }
}
