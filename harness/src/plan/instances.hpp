// instances.hpp — turns an instance point of an experiment into instances: the generator
// called with its resolved parameters and seed, or the files read by the problem's loader.
// The memory a generated instance will take is estimated first, where the problem says how.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "records/case_spec.hpp"
#include "experiment/experiment.hpp"

namespace dpgpu {

// An instance that cannot fit in host memory: its bytes needed and available.
struct InstanceTooLarge : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws InputError prefixed with the source's place in the experiment file, and
// InstanceTooLarge when the generator's estimate (or the allocation) says it cannot fit.
std::vector<AnyInstance> materialize(const Experiment& e, const ProblemEntry& problem,
                                     const InstancePoint& point);

// The instance of one case, built again from its recipe (in the worker child, or in this
// process when the case runs). Throws as materialize does.
AnyInstance build_instance(const ProblemEntry& problem, const InstanceRecipe& recipe);

}  // namespace dpgpu
