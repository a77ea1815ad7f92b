// atomic_file.h: readers see the old file or the complete new one; a failed
// write leaves the destination as it was and no temporary behind.
#include "core/io/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

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

TEST(AtomicFile, ASymlinkStaysAndTheFileItNamesIsReplaced) {
  TempFolder folder;
  test::write_text(folder / "target.json", "old");
  std::filesystem::create_symlink("target.json", folder / "link.json");
  ASSERT_TRUE(write_file_atomically(folder / "link.json", "new").ok());
  EXPECT_TRUE(std::filesystem::is_symlink(std::filesystem::symlink_status(folder / "link.json")));
  EXPECT_EQ(read_text(folder / "target.json"), "new");
  std::vector<std::string> entries = folder.entries();
  std::sort(entries.begin(), entries.end());
  EXPECT_EQ(entries, (std::vector<std::string>{"link.json", "target.json"}));  // no temporary left
}

TEST(AtomicFile, AFifoIsWrittenInPlaceNotReplaced) {
  TempFolder folder;
  const std::filesystem::path fifo = folder / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] {
    std::ifstream in(fifo, std::ios::binary);
    received.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  });
  const Status status = write_file_atomically(fifo, "through the pipe");
  reader.join();
  ASSERT_TRUE(status.ok()) << status.error().to_string();
  EXPECT_EQ(received, "through the pipe");
  EXPECT_TRUE(std::filesystem::is_fifo(std::filesystem::symlink_status(fifo)));
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"pipe"});
}

TEST(AtomicFile, ANameNearTheFileSystemLimitStillGetsATemporary) {
  TempFolder folder;
  const std::string name = std::string(250, 'n') + ".json";  // 255 bytes, NAME_MAX on Linux
  ASSERT_TRUE(write_file_atomically(folder / name, "long").ok());
  EXPECT_EQ(read_text(folder / name), "long");
  EXPECT_EQ(folder.entries(), std::vector<std::string>{name});
}

TEST(AtomicFile, MissingFolderIsAnIoErrorNamingTheFile) {
  TempFolder folder;
  const auto file = folder / "no-such-folder" / "a.json";
  const Status status = write_file_atomically(file, "x");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::Io);
  EXPECT_EQ(status.error().path, file.string());
}

TEST(AtomicFile, AFolderInTheWayIsAnErrorAndStaysAFolder) {
  TempFolder folder;
  std::filesystem::create_directory(folder / "a.json");
  const Status status = write_file_atomically(folder / "a.json", "x");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().path, (folder / "a.json").string());
  EXPECT_TRUE(std::filesystem::is_directory(folder / "a.json"));
  EXPECT_EQ(folder.entries(), std::vector<std::string>{"a.json"});
}

TEST(AtomicFileSet, WritesEveryFile) {
  TempFolder folder;
  test::write_text(folder / "x.npy", "old output");
  const std::vector<FileContents> files{{folder / "x.npy", "new output"}, {folder / "x.indices.npy", "indices"}};
  ASSERT_TRUE(write_files_atomically(files).ok());
  EXPECT_EQ(read_text(folder / "x.npy"), "new output");
  EXPECT_EQ(read_text(folder / "x.indices.npy"), "indices");
  EXPECT_EQ(folder.entries(), (std::vector<std::string>{"x.indices.npy", "x.npy"}));
}

TEST(AtomicFileSet, AFailureWritingALaterFileReplacesNoneOfThem) {
  TempFolder folder;
  test::write_text(folder / "x.npy", "old output");
  std::filesystem::create_directory(folder / "x.indices.npy");  // cannot become a file
  const std::vector<FileContents> files{{folder / "x.npy", "new output"}, {folder / "x.indices.npy", "indices"}};
  const Status status = write_files_atomically(files);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::Io);
  EXPECT_EQ(status.error().path, (folder / "x.indices.npy").string());
  EXPECT_EQ(read_text(folder / "x.npy"), "old output");
  // and no temporary of the first file is left behind
  EXPECT_EQ(folder.entries(), (std::vector<std::string>{"x.indices.npy", "x.npy"}));
}

}  // namespace
}  // namespace stridescope
