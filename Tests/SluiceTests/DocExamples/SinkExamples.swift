import Sluice
import Testing

// The examples in the doc comments of Subscribers/Sink.swift, compiled and run.

// snippet SinkOnMainActor begin
@MainActor final class TitleModel {
    private(set) var title = ""
    private var bag = Set<AnyCancellable>()
    func bind(_ titles: PassthroughSubject<String, Never>) {
        // Runs on the main actor even when `titles` is sent to from another task; weak,
        // as the model keeps the subscription.
        titles.sink { [weak self] in self?.title = $0 }.store(in: &bag)
    }
}
// snippet SinkOnMainActor end

@Suite(.timeLimit(.minutes(12))) struct SinkExamples {
    @Test @MainActor func sinkMadeOnTheMainActorRunsThere() async {
        let titles = PassthroughSubject<String, Never>()
        let model = TitleModel()
        model.bind(titles)
        titles.send("on the main actor")   // nothing queued: delivered at once
        #expect(model.title == "on the main actor")
        await Task.detached { titles.send("from another task") }.value
        // The value hops to the main actor; let the hop run.
        while model.title != "from another task" { await Task.yield() }
        #expect(model.title == "from another task")
    }

    @Test @MainActor func modelIsReleasedWithItsSubscription() {
        let titles = PassthroughSubject<String, Never>()
        weak var released: TitleModel?
        do {
            let model = TitleModel()
            model.bind(titles)
            released = model
        }
        #expect(released == nil)
    }
}
