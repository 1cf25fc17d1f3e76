/* ecs_recorder.h: the flight recorder's schema-free half, for the generated <name>_recorder_*:
 * the ring of frames (a full image of the latest frame and one delta per frame before it),
 * and a recording's JSON (docs/debugging-with-dumps.md, "Flight recorder"): the delta
 * between two frames, applying one to a frame, and reading a recording frame by frame.
 * Generated code supplies what knows a schema: the world's blocks (ecs_snapshot.h), its
 * entities as JSON and its loader. */
#ifndef ECS_RECORDER_H
#define ECS_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ecs_json.h"
#include "ecs_meta.h"
#include "ecs_snapshot.h"

/* The last `capacity` frames. A zeroed struct is no ring; ecs_frames_init makes one. */
typedef struct ecs_frames {
    uint32_t capacity;       /* frames kept */
    uint32_t frames;         /* frames held */
    ecs_snap_image_t head;   /* the latest frame, in full */
    ecs_snap_delta_t *back;  /* capacity - 1 deltas, a ring: back[newest] turns the latest
                              * frame into the one before, back[newest - 1] that one into
                              * the one before it, ... */
    uint32_t newest;
    ecs_snap_image_t scratch; /* a frame rebuilt for restore and save */
    uint64_t epoch;           /* the world's marks' epoch at the latest frame (0: none) */
} ecs_frames_t;

/* A ring of `capacity` frames (0 counts as 1); false when out of memory. */
bool ecs_frames_init(ecs_frames_t *f, uint32_t capacity);
void ecs_frames_fini(ecs_frames_t *f);
/* Forgets every frame (keeps the memory). */
void ecs_frames_clear(ecs_frames_t *f);
/* Makes the world of blocks b[0..n) the latest frame; the frame before becomes a delta, the
 * oldest is dropped once the ring is full. `epoch` is the world's marks' epoch: when it is the
 * one of the latest frame, only marked blocks are compared, and *marked (may be NULL) says so
 * (the caller may check the marks, and then resets them and sets f->epoch). False when out of
 * memory: the ring is then empty. */
bool ecs_frames_record(ecs_frames_t *f, const ecs_snap_block_t *b, uint32_t n, uint64_t epoch, bool *marked);
/* The image of frame `back` (0: the latest): the head, or the scratch image rebuilt from it
 * (valid until the next call). NULL when there is no such frame or out of memory. */
const ecs_snap_image_t *ecs_frames_image(ecs_frames_t *f, uint32_t back);
/* Bytes held, for memory reports (the struct itself not included). */
size_t ecs_frames_memory(const ecs_frames_t *f);

/* What writes and reads a recording needs of a schema's worlds (const void *: its
 * <name>_world_t): frame(user, back), frame `back` (0: the latest) as a world of its own
 * (NULL when out of memory), freed by free_world; world_json, a world as a saved document;
 * entity(world, e, scratch), an entity's object as a saved world lists it (scratch: a
 * buffer of scratch_bytes). */
typedef struct ecs_recording_writer {
    void *user;
    void *(*frame)(void *user, uint32_t back);
    void (*free_world)(void *world);
    cJSON *(*world_json)(const void *world);
    cJSON *(*entity)(const void *world, ecs_entity_t e, void *scratch);
    size_t scratch_bytes;
} ecs_recording_writer_t;

/* Writes the `frames` frames of a recorder of schema meta to `path` as one recording: the
 * oldest frame as a saved world, then a delta per frame after it (ecs_recording_delta).
 * False with the path and the reason in err (the file is then unchanged). */
bool ecs_recording_write(const char *path, const ecs_meta_schema_t *meta, uint32_t frames,
                         const ecs_recording_writer_t *writer, ecs_error_t *err);

/* A recording's delta from world a to world b of schema meta: "singletons" that differ;
 * "removed": ids whose slot is empty in b; "entities": whole objects of the entities new in
 * their slot or whose components were added or removed; "changed": the id and the changed
 * components of the others. NULL when out of memory. */
cJSON *ecs_recording_delta(const ecs_meta_schema_t *meta, const void *a, const void *b,
                           const ecs_recording_writer_t *writer, void *scratch);

/* Applies delta object d to document frame (the frame before, a saved world that loaded):
 * singletons replaced, the entities of "removed" taken out, those of "entities" put in their
 * slots, the list kept in slot order. The values are checked when the frame loads. False
 * with the path in the context's error. */
bool ecs_recording_apply(ecs_json_ctx_t *ctx, cJSON *frame, const cJSON *d);

/* Reads the recording in `path` (of schema meta), rebuilding each frame
 * as the text of a saved world: load(user, text, why) loads it (false: the error in why,
 * reported as "frame K (deltas[K-1]): why"), then keep(user) is called for the newest `keep`
 * frames (false: out of memory). False with the path and the reason in err; a frame that
 * does not load stops the read. */
typedef struct ecs_recording_reader {
    void *user;
    bool (*load)(void *user, const char *world_json, ecs_error_t *why);
    bool (*keep)(void *user);
} ecs_recording_reader_t;
bool ecs_recording_read(const char *path, const ecs_meta_schema_t *meta, uint32_t keep,
                        const ecs_recording_reader_t *reader, ecs_error_t *err);

/* err (may be NULL) set to "path: why" with code; returns false. */
bool ecs_recording_fail(ecs_error_t *err, const char *path, ecs_error_code_t code, const char *why);

#endif
