#include "instances.hpp"

#include "dpgpu/error.hpp"

namespace dpgpu {

std::vector<AnyInstance> materialize(const Experiment& e, const ProblemEntry& problem, const InstancePoint& point) {
  const InstanceSource& src = e.instances.at(point.source);
  try {
    if (src.generator.empty()) {
      auto loaded = problem.load(src.file);
      if (loaded.empty()) throw InputError("the file holds no instance");
      return loaded;
    }
    const GeneratorEntry* gen = problem.generator(src.generator);
    if (!gen) throw InputError("unknown generator '" + src.generator + "'");
    return {gen->make(point.params, point.seed)};
  } catch (const InputError& err) {
    throw InputError(src.where.str() + ": instance " + point.label + ": " + err.what());
  } catch (const std::invalid_argument& err) {
    throw InputError(src.where.str() + ": instance " + point.label + ": " + err.what());
  }
}

}  // namespace dpgpu
