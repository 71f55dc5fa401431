import Sluice
import Testing

// The doc comments' examples in Publisher+IsolatedSink.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

@MainActor private final class Label {
    var text = ""
}

private final class PublishedTitleModel: ObservableObject {
    @Published var title = "Untitled"
}

@Suite(.timeLimit(.minutes(12))) struct PublisherIsolatedSinkExamples {
    @Test @MainActor func theLabelFollowsTheTitleOnTheMainActor() async {
        let screen = TitleScreen()
        let label = Label()
        screen.bind(label)
        await yieldUntil { label.text == "Untitled" }
        screen.model.title = "Chapter 1"
        await yieldUntil { label.text == "Chapter 1" }
        #expect(screen.model.title == label.text)
    }
}

@MainActor private final class TitleScreen {
    let model = PublishedTitleModel()
    var cancellable: AnyCancellable?

    // snippet IsolatedSinkTitle begin
    @MainActor func bind(_ label: Label) {
        cancellable = model.$title.sink(isolation: MainActor.shared,
                                        receiveCompletion: { _ in },
                                        receiveValue: { label.text = $0 })
    }
    // snippet IsolatedSinkTitle end
}
