import MarkerSpec
import RouteModel

extension ScreenPlacement {
    /// The placement itself, over candidates in priority order.
    struct Placer {
        /// Where a candidate stands in the placement.
        enum State: UInt8 {
            case waiting
            case shown
            /// Hidden between two neighbours of its stage that its step splits, only because it meets
            /// a marker without a count or another stage's: it keeps its room among its stage's markers.
            case held
        }

        /// One stage's counted markers by step.
        struct Stage {
            var first: Int
            var last: Int
            /// The position of the marker at each step from `first`, -1 where there is none (its reading
            /// stands in a combined marker, or reads what the stage's start or end reads).
            var positions: [Int32]

            func position(_ step: Int) -> Int32 { positions[step - first] }
        }

        /// Two neighbouring counted markers of a stage (the count's 0 counts as one; `high` is
        /// `Int.max` past the last) and the step both are multiples of (0 for the whole count).
        struct Gap {
            var stage: Int32
            var low: Int
            var high: Int
            var step: Int
            var alive = true
            /// Held markers between the two: multiples of `step`.
            var held: [Int32] = []
        }

        /// The candidates, most important first.
        let items: [Item]
        let counts: [Count?]
        let notBefore: [Int]?
        private var grid = CellGrid()
        private var state: [State]
        private var minzoom: [Int]
        private var stages: [Stage] = []
        private var gaps: [Gap] = []
        /// The gap each held marker lies in, -1 if it splits no further.
        private var gapOfHeld: [Int32: Int32] = [:]

        /// Which candidates one grid query has met already (a picture lies in several cells).
        struct Seen {
            var last: [Int32]
            var query: Int32 = 0
        }

        init(candidates: [Candidate], rotation: Rotation, notBefore: [Int]?) {
            items = candidates.map { Item($0, rotation: rotation) }
            counts = candidates.map(\.count)
            self.notBefore = notBefore
            state = [State](repeating: .waiting, count: candidates.count)
            minzoom = [Int](repeating: never, count: candidates.count)
        }

        /// The first zoom a picture at `position` can show: where it is narrower than the world (it
        /// would meet its own copy) and not before `notBefore`.
        private func firstZoom(_ position: Int) -> Int {
            var zoom = max(zooms.lowerBound, notBefore?[position] ?? zooms.lowerBound)
            while zoom <= zooms.upperBound && scale(zoom) * WebMercator.worldSize < items[position].bounds.width + gap { zoom += 1 }
            return zoom
        }

        /// The first zoom each item shows at, by position.
        mutating func place() -> [Int] {
            let count = items.count
            // Markers without a count: each zoom's those that may fit there. A blocked one waits for
            // the zoom at which its blockers are clear of it; it is certain not to fit before.
            var waiting = [[Int32]](repeating: [], count: zooms.count)
            var stageIndex: [Int: Int32] = [:]
            var counted: [(stage: Int32, step: Int, position: Int32)] = []
            for position in 0..<count {
                if let count = counts[position] {
                    let index = stageIndex[count.stage] ?? Int32(stageIndex.count)
                    stageIndex[count.stage] = index
                    counted.append((index, count.step, Int32(position)))
                } else {
                    let zoom = firstZoom(position)
                    if zoom <= zooms.upperBound { waiting[zoom].append(Int32(position)) }
                }
            }
            var gapsWaiting = [[Int32]](repeating: [], count: zooms.count + 1)
            makeStages(counted, count: stageIndex.count)
            for index in stages.indices {
                gaps.append(Gap(stage: Int32(index), low: 0, high: .max, step: 0))
                gapsWaiting[zooms.lowerBound].append(Int32(gaps.count - 1))
            }

            var shown: [Int32] = []
            shown.reserveCapacity(count)
            var heldList: [Int32] = []
            var seen = Seen(last: [Int32](repeating: -1, count: count))
            for zoom in zooms {
                let scale = ScreenPlacement.scale(zoom)
                grid.reset(zoom: zoom, entries: shown.count + heldList.count + waiting[zoom].count)
                for position in shown { grid.insert(position, items[Int(position)], scale: scale) }
                for position in heldList { grid.insert(position, items[Int(position)], scale: scale) }

                // Markers without a count first, most important first.
                var candidates = waiting[zoom]
                waiting[zoom] = []
                candidates.sort()
                for position in candidates {
                    let item = items[Int(position)]
                    var clearFrom = zoom
                    forEachNear(position, scale: scale, seen: &seen) { other in
                        guard state[Int(other)] == .shown else { return }
                        let blocker = items[Int(other)]
                        if item.conflicts(with: blocker, scale: scale) {
                            clearFrom = max(clearFrom, item.clearingZoom(from: blocker, after: zoom))
                        }
                    }
                    if clearFrom == zoom {
                        show(position, at: zoom, scale: scale, into: &shown)
                    } else if clearFrom <= zooms.upperBound {
                        waiting[clearFrom].append(position)
                    }
                }

                // Held markers nothing meets any more show now, splitting the gap they lay in.
                var stillHeld: [Int32] = []
                var reopened: [Int32] = []
                for position in heldList {
                    if meetsShown(position, scale: scale, seen: &seen) {
                        stillHeld.append(position)
                        continue
                    }
                    show(position, at: zoom, scale: scale, into: &shown)
                    reopened += splitAtHeld(position)
                }
                heldList = stillHeld

                // Gaps, coarser steps first: a round's splits make the next round's gaps.
                var round = gapsWaiting[zoom] + reopened
                gapsWaiting[zoom] = []
                while !round.isEmpty {
                    round.sort { left, right in
                        let (a, b) = (gaps[Int(left)], gaps[Int(right)])
                        let (stepA, stepB) = (a.step == 0 ? Int.max : a.step, b.step == 0 ? Int.max : b.step)
                        return stepA != stepB ? stepA > stepB : a.stage != b.stage ? a.stage < b.stage : a.low < b.low
                    }
                    var next: [Int32] = []
                    for index in round where gaps[Int(index)].alive {
                        switch split(index, zoom: zoom, scale: scale, shown: &shown, held: &heldList, seen: &seen) {
                        case .split(let made): next += made
                        case .retry(let at): if at <= zooms.upperBound { gapsWaiting[at].append(index) }
                        case .done: gaps[Int(index)].alive = false
                        }
                    }
                    round = next
                }
            }
            return minzoom
        }

        private mutating func makeStages(_ counted: [(stage: Int32, step: Int, position: Int32)], count: Int) {
            var ranges = [(first: Int, last: Int)](repeating: (.max, .min), count: count)
            for marker in counted {
                ranges[Int(marker.stage)].first = min(ranges[Int(marker.stage)].first, marker.step)
                ranges[Int(marker.stage)].last = max(ranges[Int(marker.stage)].last, marker.step)
            }
            stages = ranges.map { range in
                // Steps are 1 on; a count that is not (a hostile caller's) still makes a stage of its own span.
                Stage(first: range.first, last: range.last, positions: [Int32](repeating: -1, count: range.last - range.first + 1))
            }
            for marker in counted {
                // Two markers at one step (there are none in a plan): the first stands for the step, the other is placed alone.
                if stages[Int(marker.stage)].position(marker.step) < 0 {
                    stages[Int(marker.stage)].positions[marker.step - stages[Int(marker.stage)].first] = marker.position
                }
            }
        }

        private mutating func show(_ position: Int32, at zoom: Int, scale: Double, into shown: inout [Int32]) {
            if state[Int(position)] != .held { grid.insert(position, items[Int(position)], scale: scale) }
            state[Int(position)] = .shown
            minzoom[Int(position)] = zoom
            shown.append(position)
        }

        private func forEachNear(_ position: Int32, scale: Double, seen: inout Seen, _ body: (Int32) -> Void) {
            let item = items[Int(position)]
            seen.query &+= 1
            let query = seen.query
            grid.forEachNear(item, scale: scale, margin: item.searchMargin) { other in
                guard other != position, seen.last[Int(other)] != query else { return }
                seen.last[Int(other)] = query
                body(other)
            }
        }

        private func meetsShown(_ position: Int32, scale: Double, seen: inout Seen) -> Bool {
            let item = items[Int(position)]
            var meets = false
            forEachNear(position, scale: scale, seen: &seen) { other in
                if !meets && state[Int(other)] == .shown && item.conflicts(with: items[Int(other)], scale: scale) { meets = true }
            }
            return meets
        }

        /// A held marker shown: its gap becomes two of the same step.
        private mutating func splitAtHeld(_ position: Int32) -> [Int32] {
            guard let index = gapOfHeld.removeValue(forKey: position), index >= 0, gaps[Int(index)].alive,
                let step = counts[Int(position)]?.step
            else { return [] }
            let gap = gaps[Int(index)]
            gaps[Int(index)].alive = false
            var made: [Int32] = []
            for (low, high) in [(gap.low, step), (step, gap.high)] {
                var part = Gap(stage: gap.stage, low: low, high: high, step: gap.step)
                part.held = gap.held.filter { $0 != position && (low..<high).contains(counts[Int($0)]?.step ?? -1) }
                gaps.append(part)
                made.append(Int32(gaps.count - 1))
                for held in part.held { gapOfHeld[held] = made.last }
            }
            return made
        }

        enum Outcome {
            /// Split: the gaps it made.
            case split([Int32])
            /// Not yet: try again at this zoom.
            case retry(Int)
            /// Nothing left to split.
            case done
        }

        /// Splits gap `index` at `zoom` by the next finer step all of whose markers in it fit (held
        /// where a marker without a count or another stage's is in the way), if there is one.
        private mutating func split(
            _ index: Int32, zoom: Int, scale: Double, shown: inout [Int32], held: inout [Int32], seen: inout Seen
        ) -> Outcome {
            let gap = gaps[Int(index)]
            let stage = stages[Int(gap.stage)]
            let lowest = max(gap.low + 1, stage.first)
            let highest = min(gap.high - 1, stage.last)
            guard lowest <= highest else { return .done }
            var step: Int? = gap.step == 0 ? StepLadder.coarsest(in: lowest...highest) : StepLadder.finer(gap.step)
            // Whether a finer step was tried because every marker of a coarser one was held: that may change at any zoom.
            var gaveWay = false
            while let current = step {
                step = StepLadder.finer(current)
                var members: [Int32] = []
                var multiple = (lowest + current - 1) / current * current
                while multiple <= highest {
                    let position = stage.position(multiple)
                    if position >= 0 && state[Int(position)] != .shown { members.append(position) }
                    multiple += current
                }
                guard !members.isEmpty else { continue }
                var blockedUntil = -1
                var heldNow: [Bool] = []
                heldNow.reserveCapacity(members.count)
                for position in members {
                    let (blocked, isHeld) = classify(position, zoom: zoom, scale: scale, seen: &seen)
                    blockedUntil = max(blockedUntil, blocked)
                    heldNow.append(isHeld)
                }
                // The members among themselves: they will all be on the map, shown or keeping room.
                if members.count > 1 {
                    for first in members.indices {
                        for second in members.indices where second > first {
                            let (a, b) = (items[Int(members[first])], items[Int(members[second])])
                            if a.conflicts(with: b, scale: scale) { blockedUntil = max(blockedUntil, a.clearingZoom(from: b, after: zoom)) }
                        }
                    }
                }
                if blockedUntil >= 0 { return .retry(gaveWay ? zoom + 1 : max(zoom + 1, blockedUntil)) }
                if heldNow.allSatisfy({ $0 }) {
                    gaveWay = true
                    continue
                }
                // Split: the markers that fit show, the rest keep their room.
                var boundaries = [gap.low]
                for (position, isHeld) in zip(members, heldNow) {
                    if isHeld {
                        if state[Int(position)] != .held {
                            state[Int(position)] = .held
                            grid.insert(position, items[Int(position)], scale: scale)
                            held.append(position)
                        }
                    } else {
                        show(position, at: zoom, scale: scale, into: &shown)
                        if let step = counts[Int(position)]?.step { boundaries.append(step) }
                    }
                }
                boundaries.append(gap.high)
                gaps[Int(index)].alive = false
                let heldHere = members.filter { state[Int($0)] == .held }
                var made: [Int32] = []
                for (low, high) in zip(boundaries, boundaries.dropFirst()) {
                    var part = Gap(stage: gap.stage, low: low, high: high, step: current)
                    part.held = heldHere.filter { (low..<high).contains(counts[Int($0)]?.step ?? -1) }
                    // A gap of step 1 splits no further; its held markers show when they can.
                    let splits = StepLadder.finer(current) != nil
                    let partIndex: Int32 = splits ? Int32(gaps.count) : -1
                    if splits {
                        gaps.append(part)
                        made.append(partIndex)
                    }
                    for position in part.held { gapOfHeld[position] = partIndex }
                }
                return .split(made)
            }
            // Every finer step's markers held: that may change at any zoom. No markers left: done.
            return gaveWay ? .retry(zoom + 1) : .done
        }

        /// Whether `position` may not show at `zoom` and until which zoom (-1 if it may), and whether
        /// it is held: in the way only of markers without a count or of other stages'.
        private func classify(_ position: Int32, zoom: Int, scale: Double, seen: inout Seen) -> (blockedUntil: Int, held: Bool) {
            let first = firstZoom(Int(position))
            if first > zoom { return (first, false) }
            let item = items[Int(position)]
            var blockedUntil = -1
            var held = false
            let ownStage = counts[Int(position)]?.stage
            forEachNear(position, scale: scale, seen: &seen) { other in
                let otherState = state[Int(other)]
                guard otherState != .waiting else { return }
                let sameStage = counts[Int(other)]?.stage == ownStage && ownStage != nil
                // Another stage's held marker keeps no room from this one.
                guard otherState == .shown || sameStage else { return }
                let blocker = items[Int(other)]
                guard item.conflicts(with: blocker, scale: scale) else { return }
                if sameStage {
                    blockedUntil = max(blockedUntil, item.clearingZoom(from: blocker, after: zoom))
                } else {
                    held = true
                }
            }
            return (blockedUntil, held)
        }
    }
}
