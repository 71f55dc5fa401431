import Sluice
import Testing

// The doc comments' examples in Publisher+IsolatedBufferedSink.swift, compiled and run;
// `.ci/check-snippets.sh` checks that each comment shows exactly the lines between the
// snippet's markers.

@MainActor private final class ProgressBar {
    var value = 0.0
    var isHidden = false
}

@MainActor private final class DownloadScreen {
    let progress = PassthroughSubject<Double, Never>()
    var cancellable: AnyCancellable?

    // snippet IsolatedBufferedSinkProgress begin
    @MainActor func bind(_ bar: ProgressBar) {
        cancellable = progress.sink(isolation: MainActor.shared,
                                    bufferingPolicy: .bufferingNewest(1),
                                    receiveCompletion: { _ in bar.isHidden = true },
                                    receiveValue: { bar.value = $0 })
    }
    // snippet IsolatedBufferedSinkProgress end
}

@Suite(.timeLimit(.minutes(12))) struct PublisherIsolatedBufferedSinkExamples {
    @Test @MainActor func theBarShowsTheNewestProgressThenHides() async {
        let screen = DownloadScreen()
        let bar = ProgressBar()
        screen.bind(bar)
        for step in 1...10 { screen.progress.send(Double(step) / 10) }
        screen.progress.send(completion: .finished)
        await yieldUntil { bar.isHidden }
        #expect(bar.value == 1.0)
    }
}
