/* The reader's scanner of plain play lines, the C twin of
 * ingest/logs/play_lines.py:py_split_plays (tests/test_play_lines.py holds the two together).
 *
 * A draw, discard or pong line in the exact form the writer gives it,
 *     {"type":"draw","seat":2,"tile":"5m","t":6500}
 * (the "t" member optional, a JSON whole number without leading zeros and at most 18
 * digits), is turned into a small int, its play code: tile * 16 + seat * 4 + kind (kind
 * 0 draw, 1 discard, 2 pong; tile 0-26 for 1m..9s). Such a line decodes with msgspec to
 * exactly that record, so nothing else needs to read it. Any other line is left as it is:
 * the reader decodes it the usual way.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define CODES 432 /* 27 tiles * 16 */
static PyObject *code_objects[CODES];

/* The play code of one line, or -1 when it is not a plain play line. */
static int play_code(const char *s, Py_ssize_t n)
{
    static const char head[] = "{\"type\":\"";
    const char *end = s + n;
    int kind;
    if (n < 36 || memcmp(s, head, 9) != 0)
        return -1;
    s += 9;
    if (memcmp(s, "draw\"", 5) == 0) {
        kind = 0;
        s += 5;
    } else if (memcmp(s, "discard\"", 8) == 0) {
        kind = 1;
        s += 8;
    } else if (memcmp(s, "pong\"", 5) == 0) {
        kind = 2;
        s += 5;
    } else {
        return -1;
    }
    /* ,"seat":S,"tile":"RX" = 21 bytes, then } or ,"t":... */
    if (end - s < 22 || memcmp(s, ",\"seat\":", 8) != 0)
        return -1;
    int seat = s[8] - '0';
    if (seat < 0 || seat > 3 || memcmp(s + 9, ",\"tile\":\"", 9) != 0)
        return -1;
    int rank = s[18] - '1';
    int suit;
    switch (s[19]) {
    case 'm': suit = 0; break;
    case 'p': suit = 1; break;
    case 's': suit = 2; break;
    default: return -1;
    }
    if (rank < 0 || rank > 8 || s[20] != '"')
        return -1;
    s += 21;
    if (end - s == 1 && s[0] == '}')
        return (suit * 9 + rank) * 16 + seat * 4 + kind;
    if (end - s < 7 || memcmp(s, ",\"t\":", 5) != 0 || end[-1] != '}')
        return -1;
    const char *digits = s + 5;
    Py_ssize_t count = (end - 1) - digits;
    if (count < 1 || count > 18 || (digits[0] == '0' && count > 1))
        return -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        if (digits[i] < '0' || digits[i] > '9')
            return -1;
    }
    return (suit * 9 + rank) * 16 + seat * 4 + kind;
}

/* split_plays(data, first_whole, last_whole) -> (parts, runs, lines): data.split(b"\n")
 * with every run of consecutive plain play lines made one part, the run's lines joined by
 * "\n" as they are in data, and runs[i] the list of its play codes (None for any other
 * part); lines is how many lines the parts hold (len(data.split(b"\n"))). The first line
 * is taken for a play line only when first_whole, the last (after the last newline) only
 * when last_whole: a piece may begin or end inside a line. The reader then makes one
 * object per run instead of one per line. */
static int append_part(PyObject *parts, PyObject *runs, const char *s, Py_ssize_t n, PyObject *codes)
{
    PyObject *part = PyBytes_FromStringAndSize(s, n);
    if (part == NULL)
        return -1;
    int failed = PyList_Append(parts, part) < 0 || PyList_Append(runs, codes != NULL ? codes : Py_None) < 0;
    Py_DECREF(part);
    return failed ? -1 : 0;
}

static PyObject *split_plays(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 3 || !PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "split_plays(data: bytes, first_whole: bool, last_whole: bool)");
        return NULL;
    }
    int first_whole = PyObject_IsTrue(args[1]);
    int last_whole = PyObject_IsTrue(args[2]);
    if (first_whole < 0 || last_whole < 0)
        return NULL;
    const char *data = PyBytes_AS_STRING(args[0]);
    Py_ssize_t size = PyBytes_GET_SIZE(args[0]);
    PyObject *parts = PyList_New(0);
    PyObject *runs = PyList_New(0);
    PyObject *codes = NULL; /* the run being built */
    Py_ssize_t run_start = 0, lines = 0, pos = 0;
    if (parts == NULL || runs == NULL)
        goto fail;
    for (;;) {
        const char *nl = memchr(data + pos, '\n', (size_t)(size - pos));
        Py_ssize_t end = nl != NULL ? nl - data : size; /* this line is data[pos:end] */
        int eligible = (lines > 0 || first_whole) && (nl != NULL || last_whole);
        int code = eligible ? play_code(data + pos, end - pos) : -1;
        lines++;
        if (code >= 0) {
            if (codes == NULL) {
                codes = PyList_New(0);
                if (codes == NULL)
                    goto fail;
                run_start = pos;
            }
            if (PyList_Append(codes, code_objects[code]) < 0)
                goto fail;
        } else {
            if (codes != NULL) { /* the run ends before this line (pos - 1 is its newline) */
                if (append_part(parts, runs, data + run_start, pos - 1 - run_start, codes) < 0)
                    goto fail;
                Py_CLEAR(codes);
            }
            if (append_part(parts, runs, data + pos, end - pos, NULL) < 0)
                goto fail;
        }
        if (nl == NULL)
            break;
        pos = end + 1;
    }
    if (codes != NULL) {
        if (append_part(parts, runs, data + run_start, size - run_start, codes) < 0)
            goto fail;
        Py_CLEAR(codes);
    }
    PyObject *count = PyLong_FromSsize_t(lines);
    if (count == NULL)
        goto fail;
    return Py_BuildValue("(NNN)", parts, runs, count);
fail:
    Py_XDECREF(codes);
    Py_XDECREF(parts);
    Py_XDECREF(runs);
    return NULL;
}

static PyObject *line_code(PyObject *self, PyObject *line)
{
    (void)self;
    if (!PyBytes_Check(line)) {
        PyErr_SetString(PyExc_TypeError, "line_code(line: bytes)");
        return NULL;
    }
    return PyLong_FromLong(play_code(PyBytes_AS_STRING(line), PyBytes_GET_SIZE(line)));
}

/* play_rows(records, first_line, lines, types, seats, tiles) -> list[int]: a row per
 * record appended to the four bytearray columns of the events table (line int32
 * little-endian, type code, seat, tile: a byte each); a play code fills its row (type 3 +
 * kind), any other record leaves 255s for the caller and its index is returned. */
static PyObject *play_rows(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 6 || !PyList_Check(args[0]) || !PyLong_Check(args[1]) || !PyByteArray_Check(args[2]) ||
        !PyByteArray_Check(args[3]) || !PyByteArray_Check(args[4]) || !PyByteArray_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError, "play_rows(records, first_line, lines, types, seats, tiles)");
        return NULL;
    }
    PyObject *records = args[0];
    long first = PyLong_AsLong(args[1]);
    if (first == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(records);
    Py_ssize_t rows = PyByteArray_GET_SIZE(args[3]);
    if (PyByteArray_GET_SIZE(args[2]) != 4 * rows || PyByteArray_GET_SIZE(args[4]) != rows ||
        PyByteArray_GET_SIZE(args[5]) != rows) {
        PyErr_SetString(PyExc_ValueError, "the columns differ in length");
        return NULL;
    }
    if (PyByteArray_Resize(args[2], 4 * (rows + n)) < 0 || PyByteArray_Resize(args[3], rows + n) < 0 ||
        PyByteArray_Resize(args[4], rows + n) < 0 || PyByteArray_Resize(args[5], rows + n) < 0)
        return NULL;
    unsigned char *lines = (unsigned char *)PyByteArray_AS_STRING(args[2]) + 4 * rows;
    unsigned char *types = (unsigned char *)PyByteArray_AS_STRING(args[3]) + rows;
    unsigned char *seats = (unsigned char *)PyByteArray_AS_STRING(args[4]) + rows;
    unsigned char *tiles = (unsigned char *)PyByteArray_AS_STRING(args[5]) + rows;
    PyObject *others = PyList_New(0);
    if (others == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long line = (unsigned long)(first + i);
        lines[4 * i] = line & 0xff;
        lines[4 * i + 1] = (line >> 8) & 0xff;
        lines[4 * i + 2] = (line >> 16) & 0xff;
        lines[4 * i + 3] = (line >> 24) & 0xff;
        PyObject *rec = PyList_GET_ITEM(records, i);
        long code = PyLong_CheckExact(rec) ? PyLong_AsLong(rec) : -1;
        if (code >= 0 && code < CODES && (code & 3) != 3) {
            types[i] = (unsigned char)(3 + (code & 3));
            seats[i] = (unsigned char)((code >> 2) & 3);
            tiles[i] = (unsigned char)(code >> 4);
            continue;
        }
        PyErr_Clear();
        types[i] = seats[i] = tiles[i] = 255;
        PyObject *index = PyLong_FromSsize_t(i);
        if (index == NULL || PyList_Append(others, index) < 0) {
            Py_XDECREF(index);
            Py_DECREF(others);
            return NULL;
        }
        Py_DECREF(index);
    }
    return others;
}

static PyMethodDef methods[] = {
    {"play_rows", (PyCFunction)(void (*)(void))play_rows, METH_FASTCALL,
     "play_rows(records, first_line, lines, types, seats, tiles) -> list[int]: the events rows of "
     "a deal's records; the indices of the records that are not play codes."},
    {"split_plays", (PyCFunction)(void (*)(void))split_plays, METH_FASTCALL,
     "split_plays(data, first_whole, last_whole) -> (parts, runs, lines): data's lines, each "
     "run of plain play lines one part with its play codes in runs."},
    {"line_code", line_code, METH_O, "line_code(line) -> int: its play code, or -1."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "ingest.logs._lines", "The C scanner of plain play lines.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__lines(void)
{
    for (int code = 0; code < CODES; code++) {
        if (code_objects[code] == NULL) {
            code_objects[code] = PyLong_FromLong(code);
            if (code_objects[code] == NULL)
                return NULL;
        }
    }
    return PyModule_Create(&module);
}
