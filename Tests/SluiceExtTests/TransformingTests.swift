import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("Transforming operators (CombineExt)")
struct TransformingTests {
    @Test("CombineExt mapToValue: every value replaced by the given one")
    func mapToValue() {
        let recorder = RecordingSubscriber<String, Never>()
        [1, 2].publisher.mapToValue("x").subscribe(recorder)
        #expect(recorder.values == ["x", "x"])
        #expect(recorder.completion == .finished)
    }

    @Test("CombineExt mapToResult: values as .success, a failure as one last .failure and a finish")
    func mapToResult() {
        let subject = PassthroughSubject<Int, Oops>()
        let recorder = RecordingSubscriber<Result<Int, Oops>, Never>()
        subject.mapToResult().subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(Oops()))
        #expect(recorder.values == [.success(1), .failure(Oops())])
        #expect(recorder.completion == .finished)
    }

    @Test("mapToResult's last value waits for demand")
    func mapToResultDemand() {
        let recorder = RecordingSubscriber<Result<Int, Oops>, Never>(initialDemand: .max(1))
        Fail<Int, Oops>(error: Oops()).mapToResult().subscribe(recorder)
        #expect(recorder.values == [.failure(Oops())])
        #expect(recorder.completion == .finished)
        let none = RecordingSubscriber<Result<Int, Oops>, Never>(initialDemand: .none)
        Fail<Int, Oops>(error: Oops()).mapToResult().subscribe(none)
        #expect(none.values.isEmpty)
        none.request(.max(1))
        #expect(none.values == [.failure(Oops())])
        #expect(none.violations.isEmpty)
    }

    @Test("CombineExt setOutputType(to:) and ignoreOutput(setOutputType:): only the completion comes through, with the new output type")
    func setOutputType() {
        let ignored = RecordingSubscriber<String, Oops>()
        [1, 2].publisher.setFailureType(to: Oops.self).ignoreOutput(setOutputType: String.self).subscribe(ignored)
        #expect(ignored.values.isEmpty)
        #expect(ignored.completion == .finished)
        let typed = RecordingSubscriber<Int, Oops>()
        Fail<Never, Oops>(error: Oops()).setOutputType(to: Int.self).subscribe(typed)
        #expect(typed.completion == .failure(Oops()))
    }

    @Test("CombineExt mapMany and filterMany: each collection's elements transformed or filtered")
    func mapManyAndFilterMany() {
        let mapped = RecordingSubscriber<[String], Never>()
        let filtered = RecordingSubscriber<[Int], Never>()
        let source = [[1, 2], [], [3]].publisher
        source.mapMany { "\($0)" }.subscribe(mapped)
        source.filterMany { $0 != 2 }.subscribe(filtered)
        #expect(mapped.values == [["1", "2"], [], ["3"]])
        #expect(filtered.values == [[1], [], [3]])
    }

    @Test("CombineExt toggle: every Bool negated")
    func toggle() {
        let recorder = RecordingSubscriber<Bool, Never>()
        [true, false].publisher.toggle().subscribe(recorder)
        #expect(recorder.values == [false, true])
    }

    @Test("CombineExt nwise: nothing before size values, then the last size values per value; the finish passes through")
    func nwise() {
        let recorder = RecordingSubscriber<[Int], Never>()
        [1, 2, 3, 4, 5].publisher.nwise(3).subscribe(recorder)
        #expect(recorder.values == [[1, 2, 3], [2, 3, 4], [3, 4, 5]])
        #expect(recorder.completion == .finished)
    }

    @Test("nwise: the downstream's demand counts arrays; a value that completes none asks for one more")
    func nwiseDemand() {
        let upstream = ControllablePublisher<Int, Oops>()
        defer { upstream.detachAll() }
        let recorder = RecordingSubscriber<[Int], Oops>(initialDemand: .max(1))
        upstream.nwise(2).subscribe(recorder)
        let subscription = upstream.subscriptions[0]
        #expect(subscription.requests == [.max(1)])
        #expect(subscription.send(1) == .max(1))
        #expect(subscription.send(2) == .none)
        subscription.send(completion: .failure(Oops()))
        #expect(recorder.values == [[1, 2]])
        #expect(recorder.completion == .failure(Oops()))
        #expect(recorder.violations.isEmpty)
    }

    @Test("CombineExt pairwise: each value with the previous one; each subscription has its own window")
    func pairwise() {
        let pairs = [1, 2, 3].publisher.pairwise()
        for _ in 0..<2 {
            let recorder = RecordingSubscriber<[Int], Never>()
            pairs.map { [$0.0, $0.1] }.subscribe(recorder)
            #expect(recorder.values == [[1, 2], [2, 3]])
        }
    }

    @Test("CombineExt enumerated: each value with its index from initial; each subscription counts on its own; demand passes through")
    func enumerated() {
        let enumerated = ["a", "b"].publisher.enumerated(initial: 1)
        for _ in 0..<2 {
            let recorder = RecordingSubscriber<String, Never>()
            enumerated.map { "\($0.index)\($0.element)" }.subscribe(recorder)
            #expect(recorder.values == ["1a", "2b"])
        }
        let upstream = ControllablePublisher<Int, Never>()
        defer { upstream.detachAll() }
        let limited = RecordingSubscriber<(index: Int, element: Int), Never>(initialDemand: .max(2))
        upstream.enumerated().subscribe(limited)
        #expect(upstream.subscriptions[0].requests == [.max(2)])
        limited.cancel()
        #expect(upstream.subscriptions[0].cancelCount == 1)
    }
}
