// Internal to the DxDispatch model reader (dxdispatch_model.cpp): the
// pieces that read one part of a model, each returning the value or an error
// naming the JSON path.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/codegen/dxdispatch_model.h"

namespace stridescope::dxdispatch {

using json = nlohmann::json;

// A DirectML enum by its full name or its suffix after `prefix`
// ("DML_TENSOR_DATA_TYPE_FLOAT32" or "FLOAT32").
Expected<std::string> read_enum(const json& value, const std::string& path, std::string_view prefix);
Expected<DataType> read_dml_type(const json& value, const std::string& path);
std::string lower(std::string text);

// resources.NAME (dxdispatch_resources.cpp).
Expected<DxResource> read_resource(const std::string& name, const json& r, const std::filesystem::path& base_dir,
                                   const Limits& limits);

// dispatchables.NAME, validated as an Operation (dxdispatch_dispatchable.cpp).
Expected<DxDispatchable> read_dispatchable(const std::string& name, const json& d, const Limits& limits);

}  // namespace stridescope::dxdispatch
