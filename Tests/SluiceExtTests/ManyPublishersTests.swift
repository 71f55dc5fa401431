import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("Operators over many publishers (CombineExt)")
struct ManyPublishersTests {
    @Test("merge(): every publisher's values as they come, finishing when all have")
    func merge() {
        let subjects = [PassthroughSubject<Int, Oops>(), PassthroughSubject<Int, Oops>(), PassthroughSubject<Int, Oops>()]
        let recorder = RecordingSubscriber<Int, Oops>()
        subjects.merge().subscribe(recorder)
        subjects[2].send(3)
        subjects[0].send(1)
        subjects[1].send(2)
        for subject in subjects.dropLast() { subject.send(completion: .finished) }
        #expect(recorder.completion == nil, "one is still open")
        subjects[2].send(completion: .finished)
        #expect(recorder.values == [3, 1, 2] && recorder.completion == .finished)
    }

    @Test("merge() never delivers beyond the demand")
    func mergeDemand() {
        let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3))
        [(1...4).publisher, (5...8).publisher].merge().subscribe(recorder)
        #expect(recorder.values.count == 3 && recorder.completion == nil)
        recorder.request(.unlimited)
        #expect(recorder.values.sorted() == Array(1...8) && recorder.completion == .finished)
        #expect(recorder.violations.isEmpty)
    }

    @Test("combineLatest(): arrays in the collection's order once all have sent; a failure ends it")
    func combineLatest() {
        let subjects = [PassthroughSubject<Int, Oops>(), PassthroughSubject<Int, Oops>(), PassthroughSubject<Int, Oops>()]
        let recorder = RecordingSubscriber<[Int], Oops>()
        subjects.combineLatest().subscribe(recorder)
        subjects[2].send(30)
        subjects[0].send(10)
        #expect(recorder.values.isEmpty)
        subjects[1].send(20)
        subjects[0].send(11)
        #expect(recorder.values == [[10, 20, 30], [11, 20, 30]])
        subjects[1].send(completion: .failure(Oops()))
        subjects[0].send(12)
        #expect(recorder.values.count == 2 && recorder.completion == .failure(Oops()))
    }

    @Test("zip(): the n-th value of each in the n-th array; finishes when one finishes with nothing left to pair")
    func zip() {
        let recorder = RecordingSubscriber<[Int], Never>(initialDemand: .max(1))
        [[0, 10, 20].publisher, [1, 11].publisher, [2, 12, 22].publisher].zip().subscribe(recorder)
        #expect(recorder.values == [[0, 1, 2]], "the second array waits for demand")
        recorder.request(.max(5))
        #expect(recorder.values == [[0, 1, 2], [10, 11, 12]])
        #expect(recorder.completion == .finished, "the second publisher has finished with nothing left to pair")
        #expect(recorder.violations.isEmpty)
    }

    @Test("combineLatest() and zip() of no publishers finish at once without a value, as CombineExt's")
    func emptyCollections() {
        let none: [Just<Int>] = []
        let latest = RecordingSubscriber<[Int], Never>()
        none.combineLatest().subscribe(latest)
        let zipped = RecordingSubscriber<[Int], Never>()
        none.zip().subscribe(zipped)
        #expect(latest.values.isEmpty && latest.completion == .finished)
        #expect(zipped.values.isEmpty && zipped.completion == .finished)
    }

    @Test("combineLatest(ifEmpty:): of no publishers, one empty array when asked (or a finish); of some, combineLatest()")
    func combineLatestIfEmpty() {
        let none: [PassthroughSubject<Int, Never>] = []
        let empty = RecordingSubscriber<[Int], Never>(initialDemand: .none)
        none.combineLatest(ifEmpty: .sendEmptyArray).subscribe(empty)
        #expect(empty.values.isEmpty && empty.completion == nil)   // waits for demand
        empty.request(.max(1))
        #expect(empty.values == [[]])
        #expect(empty.completion == .finished)
        let finishing = RecordingSubscriber<[Int], Never>()
        none.combineLatest(ifEmpty: .finish).subscribe(finishing)
        #expect(finishing.values.isEmpty && finishing.completion == .finished)
        let two = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        let latest = RecordingSubscriber<[Int], Never>()
        two.combineLatest(ifEmpty: .sendEmptyArray).subscribe(latest)
        two[0].send(1)
        two[1].send(2)
        #expect(latest.values == [[1, 2]])
        latest.cancel()
    }

    @Test("combineLatest(with:) and zip(with:), listed or as a collection; with no others, each value alone")
    func withOthers() {
        let latest = RecordingSubscriber<[Int], Never>()
        Just(1).combineLatest(with: Just(2), Just(3)).subscribe(latest)
        #expect(latest.values == [[1, 2, 3]] && latest.completion == .finished)
        let zipped = RecordingSubscriber<[Int], Never>()
        [1, 2].publisher.zip(with: [[10, 20].publisher, [100, 200, 300].publisher]).subscribe(zipped)
        #expect(zipped.values == [[1, 10, 100], [2, 20, 200]] && zipped.completion == .finished)
        let alone = RecordingSubscriber<[Int], Never>()
        [1, 2].publisher.zip(with: [Just<Int>]()).subscribe(alone)
        #expect(alone.values == [[1], [2]])
    }
}
