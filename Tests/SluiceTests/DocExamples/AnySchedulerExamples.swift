import Dispatch
import Sluice
import SluiceTesting
import Testing

// The doc comments' examples in AnyScheduler.swift, compiled and run; `.ci/check-snippets.sh`
// checks that each comment shows exactly the lines between the snippet's markers.

@Suite struct AnySchedulerExamples {
    @Test func aTestSchedulerStandsInForTheMainQueue() {
        // snippet AnySchedulerInjected begin
        final class SearchModel {
            let scheduler: AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
            init(scheduler: AnyScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
                     = AnyScheduler(DispatchQueue.main)) { self.scheduler = scheduler }
        }
        let app = SearchModel()                                   // the main queue
        #expect(app.scheduler.minimumTolerance == DispatchQueue.main.minimumTolerance)
        let test = DispatchQueue.test                             // virtual time
        let model = SearchModel(scheduler: AnyScheduler(test))    // the test moves the clock
        // snippet AnySchedulerInjected end
        let start = model.scheduler.now
        test.advance(by: .seconds(1))
        #expect(model.scheduler.now == start.advanced(by: .seconds(1)))
    }
}
