#include "gpu/linear_images.h"

#include <algorithm>
#include <string>

#include "gpu/vk_error.h"

namespace stridescope::gpu {

namespace {

Error unusable(std::string why) { return Error{ErrorCode::BackendFailure, "", "linear image: " + std::move(why)}; }

}  // namespace

std::vector<VkBufferImageCopy> buffer_image_copies(const AliasedImage& image) {
  std::vector<VkBufferImageCopy> regions;
  regions.reserve(image.copies.size());
  for (const ByteCopy& copy : image.copies) {
    const ImageRegion r = image.region(copy);
    VkBufferImageCopy region{};
    region.bufferOffset = r.buffer_offset;
    region.bufferRowLength = r.buffer_row_texels;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageOffset = {static_cast<int32_t>(r.x), static_cast<int32_t>(r.y), 0};
    region.imageExtent = {r.width, r.height, 1};
    regions.push_back(region);
  }
  return regions;
}

VkImageMemoryBarrier preinitialized_to_general(VkImage image) {
  VkImageMemoryBarrier b{};
  b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
  b.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  b.oldLayout = VK_IMAGE_LAYOUT_PREINITIALIZED;
  b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  return b;
}

LinearImages::LinearImages(const Context& context) : context_(context) {
  LinearImageCaps caps;
  caps.alignment = 1;
  for (uint32_t texel = 1; texel <= 16; texel *= 2) {
    const auto& properties = context.linear_transfer_image(texel);
    if (!properties) continue;
    const uint32_t width = properties->maxExtent.width;
    const uint32_t height = properties->maxExtent.height;
    caps.max_width = caps.texel_sizes == 0 ? width : std::min(caps.max_width, width);
    caps.max_height = caps.texel_sizes == 0 ? height : std::min(caps.max_height, height);
    caps.texel_sizes |= texel;
  }
  if (caps.texel_sizes == 0) return;
  // The offset alignment the images ask for; a probe tells (it does not
  // depend on the size on any known device, and bind() checks it anyway).
  if (auto probe = create(4, 64, 4); probe) {
    VkMemoryRequirements requirements{};
    context.vk().vkGetImageMemoryRequirements(context.device(), probe->get(), &requirements);
    caps.alignment = std::max<VkDeviceSize>(requirements.alignment, 1);
  } else {
    return;
  }
  caps.row_pitch = [this](uint32_t texel, uint32_t width) { return row_pitch(texel, width); };
  caps_ = std::move(caps);
}

std::optional<LinearImageCaps> LinearImages::caps() const {
  std::optional<LinearImageCaps> caps = caps_;
  if (caps && testing_max_height_) caps->max_height = std::min(caps->max_height, *testing_max_height_);
  return caps;
}

Expected<ImageHandle> LinearImages::create(uint32_t texel_bytes, uint32_t width, uint32_t height) const {
  VkImageCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = raw_texel_format(texel_bytes);
  info.extent = {width, height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_LINEAR;
  info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  // Unlike UNDEFINED, leaving PREINITIALIZED keeps the bytes: the image
  // stands on a buffer whose other bytes (gaps, padding) must survive.
  info.initialLayout = VK_IMAGE_LAYOUT_PREINITIALIZED;
  VkImage image = VK_NULL_HANDLE;
  SS_RETURN_IF_ERROR(vk_check(context_.vk().vkCreateImage(context_.device(), &info, nullptr, &image),
                              "creating a linear image"));
  return ImageHandle(context_.vk(), context_.device(), image);
}

std::optional<uint64_t> LinearImages::row_pitch(uint32_t texel_bytes, uint32_t width) const {
  const auto key = std::pair{texel_bytes, width};
  if (auto found = pitches_.find(key); found != pitches_.end()) return found->second;
  std::optional<uint64_t> pitch;
  if (auto probe = create(texel_bytes, width, 1); probe) {
    const VkImageSubresource subresource{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
    VkSubresourceLayout layout{};
    context_.vk().vkGetImageSubresourceLayout(context_.device(), probe->get(), &subresource, &layout);
    if (layout.offset == 0) pitch = layout.rowPitch;
  }
  pitches_.emplace(key, pitch);
  return pitch;
}

Expected<ImageHandle> LinearImages::bind(const AliasedImage& image, const Buffer& owner) const {
  SS_ASSIGN_OR_RETURN(ImageHandle made, create(image.texel_bytes, image.width, image.height));
  const VkImageSubresource subresource{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
  VkSubresourceLayout layout{};
  context_.vk().vkGetImageSubresourceLayout(context_.device(), made.get(), &subresource, &layout);
  if (layout.offset != 0 || layout.rowPitch != image.row_pitch) return unusable("row pitch differs from the plan");
  VkMemoryRequirements requirements{};
  context_.vk().vkGetImageMemoryRequirements(context_.device(), made.get(), &requirements);
  if ((requirements.memoryTypeBits & (1u << owner.memory_type())) == 0) {
    return unusable("the buffer's memory type cannot hold images");
  }
  if (requirements.alignment == 0 || image.offset % requirements.alignment != 0) return unusable("misaligned");
  if (image.offset + requirements.size > owner.allocation_size()) return unusable("reaches past the buffer");
  SS_RETURN_IF_ERROR(vk_check(context_.vk().vkBindImageMemory(context_.device(), made.get(), owner.memory(), image.offset),
                              "binding a linear image"));
  return made;
}

}  // namespace stridescope::gpu
