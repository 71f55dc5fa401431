import Sluice
import SluiceExt
import SluiceTesting
import Testing

// The doc comments' examples in Nwise.swift, RemoveAllDuplicates.swift, ManyPublishers.swift,
// Amb.swift, RetryWhen.swift and FlatMapBatches.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite struct OperatorExamples {
    @Test func nwiseWindows() {
        // snippet NwiseWindows begin
        let recorder = RecordingSubscriber<[Int], Never>()
        [1, 2, 3, 4].publisher.nwise(3).subscribe(recorder)
        #expect(recorder.values == [[1, 2, 3], [2, 3, 4]])
        // snippet NwiseWindows end
    }

    @Test func removeAllDuplicatesBy() {
        // snippet RemoveAllDuplicatesBy begin
        let recorder = RecordingSubscriber<String, Never>()
        ["a", "B", "A", "b", "c"].publisher
            .removeAllDuplicates { $0.lowercased() == $1.lowercased() }
            .subscribe(recorder)
        #expect(recorder.values == ["a", "B", "c"])
        // snippet RemoveAllDuplicatesBy end
    }

    @Test func combineLatestMany() {
        // snippet CombineLatestMany begin
        let sensors = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        let recorder = RecordingSubscriber<[Int], Never>()
        sensors.combineLatest().subscribe(recorder)
        sensors[0].send(20)
        #expect(recorder.values.isEmpty)   // the second sensor has not sent yet
        sensors[1].send(18)
        sensors[0].send(21)
        #expect(recorder.values == [[20, 18], [21, 18]])
        // snippet CombineLatestMany end
        recorder.cancel()
    }

    @Test func ambFirstToSignal() {
        // snippet AmbFirstToSignal begin
        let cache = PassthroughSubject<String, Never>()
        let network = PassthroughSubject<String, Never>()
        let recorder = RecordingSubscriber<String, Never>()
        cache.amb(network).subscribe(recorder)
        network.send("fresh")   // network wins: cache is cancelled
        cache.send("stale")
        network.send("fresher")
        #expect(recorder.values == ["fresh", "fresher"])
        // snippet AmbFirstToSignal end
        recorder.cancel()
    }

    @Test func retryWhenTwice() {
        // snippet RetryWhenTwice begin
        var attempts = 0
        let flaky = Deferred {
            attempts += 1
            return attempts < 3 ? Fail<Int, Oops>(error: Oops()).eraseToAnyPublisher()
                                : Just(42).setFailureType(to: Oops.self).eraseToAnyPublisher()
        }
        let recorder = RecordingSubscriber<Int, Oops>()
        flaky.retryWhen { failures in failures.map { _ in () } }.subscribe(recorder)
        #expect(attempts == 3)
        #expect(recorder.values == [42])
        // snippet RetryWhenTwice end
        #expect(recorder.completion == .finished)
    }

    @Test func flatMapBatchesPairs() {
        // snippet FlatMapBatchesPairs begin
        let recorder = RecordingSubscriber<[Int], Never>()
        [Just(1), Just(2), Just(3)].flatMapBatches(of: 2).subscribe(recorder)
        #expect(recorder.values == [[1, 2], [3]])
        #expect(recorder.completion == .finished)
        // snippet FlatMapBatchesPairs end
    }

    @Test func combineLatestIfEmpty() {
        // snippet CombineLatestIfEmpty begin
        let filters: [AnyPublisher<Bool, Never>] = []   // none chosen yet
        let recorder = RecordingSubscriber<Bool, Never>()
        filters.combineLatest(ifEmpty: .sendEmptyArray).map { $0.allSatisfy { $0 } }.subscribe(recorder)
        #expect(recorder.values == [true])   // no filter rejects anything
        // snippet CombineLatestIfEmpty end
    }
}
