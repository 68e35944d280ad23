// Reads one image reference per line and prints "ok" or "refused": the parse the kubelet makes before it pulls
// an image (k8s.io/kubernetes v1.32.4 pkg/util/parsers.ParseImageName calls reference.ParseNormalizedNamed, with
// the sha256 and sha512 digests registered). tests/lint/test_image_reference.py compares AC710 with it.
package main

import (
	"bufio"
	_ "crypto/sha256"
	_ "crypto/sha512"
	"fmt"
	"os"

	"github.com/distribution/reference"
)

func main() {
	lines := bufio.NewScanner(os.Stdin)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	for lines.Scan() {
		if _, err := reference.ParseNormalizedNamed(lines.Text()); err != nil {
			fmt.Println("refused")
		} else {
			fmt.Println("ok")
		}
	}
}
