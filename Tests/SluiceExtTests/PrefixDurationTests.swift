import Sluice
import SluiceExt
import SluiceTesting
import Testing

@Suite("prefix(duration:) (CombineExt)")
struct PrefixDurationTests {
    @Test("values until the duration has passed since the subscription, then a finish and a cancel of the upstream")
    func endsWhenTheTimeIsUp() {
        let scheduler = VirtualTimeScheduler()
        let upstream = PassthroughSubject<Int, Oops>()
        let recorder = RecordingSubscriber<Int, Oops>()
        scheduler.advance(by: .seconds(5))  // the clock starts at the subscription, not before
        upstream.prefix(duration: .seconds(2), on: scheduler).subscribe(recorder)
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        upstream.send(2)
        #expect(recorder.completion == nil)
        scheduler.advance(by: .seconds(1))
        upstream.send(3)
        #expect(recorder.values == [1, 2] && recorder.completion == .finished)
    }

    @Test("a failure before the time is up ends the stream; demand passes through")
    func failureAndDemand() {
        let scheduler = VirtualTimeScheduler()
        let upstream = PassthroughSubject<Int, Oops>()
        let recorder = RecordingSubscriber<Int, Oops>(initialDemand: .max(1))
        upstream.prefix(duration: .seconds(2), on: scheduler).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)  // no demand: the subject drops it
        upstream.send(completion: .failure(Oops()))
        scheduler.advance(by: .seconds(3))
        #expect(recorder.values == [1] && recorder.completion == .failure(Oops()))
        #expect(recorder.violations.isEmpty)
    }
}
