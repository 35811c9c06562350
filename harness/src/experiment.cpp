// Placeholder: parse_experiment and expand are being written.
#include "dpgpu/experiment.hpp"
