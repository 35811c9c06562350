// instances.hpp — turns an instance point of an experiment into instances: the generator
// called with its resolved parameters and seed, or the files read by the problem's loader.
#pragma once
#include <vector>

#include "dpgpu/experiment.hpp"

namespace dpgpu {

// Throws InputError prefixed with the source's place in the experiment file.
std::vector<AnyInstance> materialize(const Experiment& e, const ProblemEntry& problem, const InstancePoint& point);

}  // namespace dpgpu
