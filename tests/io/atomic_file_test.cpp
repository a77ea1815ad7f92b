// atomic_file.h: readers see the old file or the complete new one; a failed
// write leaves the destination as it was and no temporary behind.
#include "core/io/atomic_file.h"

#include <gtest/gtest.h>

#include "temp_folder.h"

namespace stridescope {
namespace {

using test::read_text;
using test::TempFolder;

TEST(AtomicFile, WritesTheContentsAndLeavesNoTemporary) {
  TempFolder folder;
  ASSERT_TRUE(write_file_atomically(folder / "a.json", "hello\n").ok());
  EXPECT_EQ(read_text(folder / "a.json"), "hello\n");
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"a.json"});
}

TEST(AtomicFile, ReplacesAnExistingFile) {
  TempFolder folder;
  test::write_text(folder / "a.json", "old contents that are longer");
  ASSERT_TRUE(write_file_atomically(folder / "a.json", "new").ok());
  EXPECT_EQ(read_text(folder / "a.json"), "new");
}

TEST(AtomicFile, AbandonedWriteKeepsTheOldFileAndRemovesTheTemporary) {
  TempFolder folder;
  test::write_text(folder / "a.json", "old");
  const Status status = write_file_atomically(folder / "a.json", [](std::ostream& stream) {
    stream << "partial";
    return false;
  });
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::Io);
  EXPECT_EQ(read_text(folder / "a.json"), "old");
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"a.json"});
}

TEST(AtomicFile, MissingFolderIsAnIoErrorNamingTheFile) {
  TempFolder folder;
  const auto file = folder / "no-such-folder" / "a.json";
  const Status status = write_file_atomically(file, "x");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::Io);
  EXPECT_EQ(status.error().path, file.string());
}

}  // namespace
}  // namespace stridescope
