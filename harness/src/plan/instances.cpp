#include "plan/instances.hpp"

#include <fmt/format.h>

#include <new>
#include <stdexcept>

#include "dpgpu/error.hpp"
#include "dpgpu/text_file.hpp"
#include "records/hash_text.hpp"
#include "plan/file_kind.hpp"
#include "process/host_memory.hpp"
#include "measure/measure.hpp"
#include "records/human_format.hpp"

namespace dpgpu {

namespace {

// Refuses before building when the problem's estimate is above the host memory available.
void check_instance_bytes(const ProblemEntry& problem, const std::string& generator,
                          const Params& params) {
  if (!problem.instance_bytes) return;
  const std::uint64_t need = problem.instance_bytes(generator, params);
  const std::uint64_t avail = host_bytes_available();
  if (need > avail)
    throw InstanceTooLarge(
        fmt::format("the instance needs {} of host memory, {} available{}", format_bytes(need),
                    avail == UINT64_MAX ? std::string("an unknown amount") : format_bytes(avail),
                    cgroup_memory_words()));
}

std::vector<AnyInstance> generate(const ProblemEntry& problem, const std::string& name,
                                  const Params& params, std::uint64_t seed) {
  const GeneratorEntry* gen = problem.generator(name);
  if (!gen) throw InputError("unknown generator '" + name + "'");
  check_instance_bytes(problem, name, params);
  try {
    return {gen->make(params, seed)};
  } catch (const std::bad_alloc&) {
    throw InstanceTooLarge(
        fmt::format("building the instance ran out of host memory (std::bad_alloc); {} available",
                    format_bytes(host_bytes_available())));
  } catch (const std::length_error& err) {
    throw InstanceTooLarge(
        fmt::format("the instance is larger than a container can hold ({})", err.what()));
  }
}

// A FIFO, a device or a folder would block a read or never end it: refused before opening.
void refuse_non_regular(const std::filesystem::path& path) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (ec || st.type() == std::filesystem::file_type::not_found)
    return;  // the reader says it is missing
  if (st.type() == std::filesystem::file_type::regular) return;
  const char* what = st.type() == std::filesystem::file_type::directory ? "a folder"
                     : st.type() == std::filesystem::file_type::fifo    ? "a FIFO (named pipe)"
                     : st.type() == std::filesystem::file_type::socket  ? "a socket"
                                                                        : "a device";
  throw InputError(
      fmt::format("{} is {}, not a regular file; instances are read from regular files only",
                  path.string(), what));
}

std::vector<AnyInstance> read_files(const ProblemEntry& problem, const FileSource& files) {
  for (const auto& path : files.paths) refuse_non_regular(path);
  for (const auto& path : files.paths) refuse_wrong_file_kind(problem, path);
  std::vector<AnyInstance> loaded;
  try {
    loaded = problem.load(files);
  } catch (const InputError& err) {
    // Say what the file looks like when that explains the error (a FASTA given to TSP).
    std::string what = err.what();
    for (const auto& path : files.paths)
      if (auto kind = describe_file_kind(path); !kind.empty())
        what += fmt::format(" ({} looks like {})", path.filename().string(), kind);
    throw InputError(what);
  }
  if (loaded.empty()) throw InputError("the file holds no instance");
  return loaded;
}

}  // namespace

std::vector<AnyInstance> materialize(const Experiment& e, const ProblemEntry& problem,
                                     const InstancePoint& point) {
  const InstanceSource& src = e.instances.at(point.source);
  try {
    if (src.generator.empty()) return read_files(problem, src.file);
    return generate(problem, src.generator, point.params, point.seed);
  } catch (const InstanceTooLarge& err) {
    throw InstanceTooLarge(src.where.str() + ": instance " + point.label + ": " + err.what());
  } catch (const InputError& err) {
    throw InputError(src.where.str() + ": instance " + point.label + ": " + err.what());
  } catch (const std::invalid_argument& err) {
    throw InputError(src.where.str() + ": instance " + point.label + ": " + err.what());
  }
}

// A file whose content is not what the plan read (replaced, edited, truncated since): the
// case's facts (n, work) are the old file's, so measuring the new one would mix the two.
static void check_unchanged(const InstanceRecipe& recipe) {
  for (std::size_t i = 0; i < recipe.files.size() && i < recipe.file_hashes.size(); ++i) {
    if (recipe.file_hashes[i].empty()) continue;
    std::string now;
    try {
      now = hash_text(read_whole_file(recipe.files[i]));
    } catch (const std::exception& e) {
      now = std::string("unreadable: ") + e.what();
    }
    if (now != recipe.file_hashes[i])
      throw InputError(fmt::format(
          "instance file {} changed since the plan read it (content hash {} then, {} now), so the "
          "case's sizes and work would not be those of what it solves; restore the file, or start "
          "a new run (another --out, or --fresh) to measure the new one",
          recipe.files[i], recipe.file_hashes[i], now));
  }
}

static AnyInstance build_as_recorded(const ProblemEntry& problem, const InstanceRecipe& recipe) {
  if (!recipe.generator.empty()) {
    const GeneratorEntry* gen = problem.generator(recipe.generator);
    if (!gen) throw InputError("unknown generator '" + recipe.generator + "'");
    return generate(problem, recipe.generator, gen->schema.resolve(recipe.params), recipe.seed)
        .front();
  }
  FileSource files;
  for (auto& f : recipe.files) files.paths.emplace_back(f);
  files.select = recipe.select;
  auto loaded = read_files(problem, files);
  check_unchanged(recipe);  // after reading: what was read is what the plan read
  if (recipe.loaded_index >= loaded.size())
    throw InputError(fmt::format("{} now holds {} instances, expected at least {}",
                                 recipe.files.front(), loaded.size(), recipe.loaded_index + 1));
  return std::move(loaded[recipe.loaded_index]);
}

AnyInstance build_instance(const ProblemEntry& problem, const InstanceRecipe& recipe) {
  AnyInstance x = build_as_recorded(problem, recipe);
  if (recipe.optimum && !x.known_optimum && problem.with_optimum)
    x = problem.with_optimum(x, *recipe.optimum);
  return x;
}

}  // namespace dpgpu
