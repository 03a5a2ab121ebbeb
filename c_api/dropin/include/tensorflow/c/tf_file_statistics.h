/* sg's copy of TensorFlow 2.21's tensorflow/c/tf_file_statistics.h: what a file system reports
 * about a path (used by TensorFlow's file system plugins, which sg does not load). */
#ifndef TENSORFLOW_C_TF_FILE_STATISTICS_H_
#define TENSORFLOW_C_TF_FILE_STATISTICS_H_

#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

typedef struct TF_FileStatistics {
  int64_t length;     /* bytes */
  int64_t mtime_nsec; /* last modification, ns since the epoch */
  bool is_directory;
} TF_FileStatistics;

#endif /* TENSORFLOW_C_TF_FILE_STATISTICS_H_ */
