// all_gpus.hpp — `gpus: all`: a solver's GPU count (its parameter `gpus`) given as every GPU
// of the host that plans the run. Parsing keeps the text "all"; expand resolves it.
#pragma once
#include <string>

#include "dpgpu/value.hpp"
#include "experiment/experiment.hpp"

namespace dpgpu {

bool is_all_gpus(const std::string& key, const Value& v);

// expand(e) with `gpus: all` as max(1, host_cards) in the solvers' parameters; the case's
// label keeps "gpus=all", so one file gives the same case ids on every host (a host without
// GPUs skips those cases, as every GPU case). expand(e) is expand(e, 1).
Plan expand(const Experiment& e, int host_cards);

}  // namespace dpgpu
