// The cross-cutting conformance suite (issue 5): every rule of DESIGN.md's "Rules every
// publisher and subscription in the package keeps", and the Reactive Streams rules that apply
// to Combine's semantics, run over a registry of every publisher, operator and bridge path;
// plus stress, seeded random schedules, bounded-memory checks and exit tests for every trap.
//
// Layout: `Registry/` (the factories), `Rules/` (one file per rule group), `Stress/`,
// `Schedules/` (the random schedules and the demand model), `Misuse/` (exit tests).
import Testing
