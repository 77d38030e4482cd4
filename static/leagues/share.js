// "Share the link" on a table's QR page: the phone's own share sheet where it has one (a text
// message, WhatsApp), else the link copied. Without JavaScript the link is on the page.
for (const button of document.querySelectorAll("button[data-share]")) {
  const url = button.dataset.share;
  const title = button.dataset.shareTitle || document.title;
  if (!navigator.share && !navigator.clipboard) continue;
  button.hidden = false;
  if (!navigator.share) button.textContent = "Copy the link";
  button.addEventListener("click", async () => {
    try {
      if (navigator.share) {
        await navigator.share({ title, url });
      } else {
        await navigator.clipboard.writeText(url);
        button.textContent = "Link copied";
      }
    } catch {
      // The share sheet closed without sharing: nothing to do.
    }
  });
}
