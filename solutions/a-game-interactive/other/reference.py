"""A Game (IOI'96), played as player 1 against the referee. Reference in Python.

f[i][j] is the best final score of the player to move on a[i:j]: whatever the
opponent makes of the rest, the mover gets the remainder. Each turn take the
end that leaves the opponent the smaller f.
"""
import sys


def tokens():
    # One line at a time: never wait for more than the referee has sent.
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        yield from line.split()


def main():
    read = tokens()
    n = int(next(read))
    a = [int(next(read)) for _ in range(n)]
    prefix = [0] * (n + 1)
    for i, v in enumerate(a):
        prefix[i + 1] = prefix[i] + v
    f = [[0] * (n + 1) for _ in range(n + 1)]
    for length in range(1, n + 1):
        for i in range(n - length + 1):
            j = i + length
            f[i][j] = prefix[j] - prefix[i] - min(f[i + 1][j], f[i][j - 1])

    i, j = 0, n
    sums = [0, 0]
    for _ in range(n // 2):
        if f[i + 1][j] <= f[i][j - 1]:
            sums[0] += a[i]
            i += 1
            print("L", flush=True)
        else:
            sums[0] += a[j - 1]
            j -= 1
            print("R", flush=True)
        if next(read) == "L":
            sums[1] += a[i]
            i += 1
        else:
            sums[1] += a[j - 1]
            j -= 1
    print(sums[0], sums[1], flush=True)


main()
