"""What only the book needs: the paper's figures, the figure theme, notices and highlighted texts."""
